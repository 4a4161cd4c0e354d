import https from 'node:https';
import { isIP } from 'node:net';
import { httpRequest } from '../shared/http-request.js';
import { isPublicAddress, publicOnlyLookup } from '../shared/public-address.js';

/**
 * The one way out for every notification channel (docs/decisions/144-one-outbound-path.md): a
 * user chooses the URL, so the server must not become a way into the operator's own network.
 * The URL is checked when saved and again at each send; every connection resolves names through
 * publicOnlyLookup, so a name that points at a private address later is refused at connect
 * time. Redirects are not followed, a slow receiver is cut off, and only the start of an answer
 * is read. `allowPrivate` (OUTBOUND_ALLOW_PRIVATE) lifts the address rules for an operator whose
 * receivers live on their own network, and for the tests' receivers on loopback.
 */

const TIMEOUT_MS = 10_000;
/** What a channel may send: a reminder or an event is a few hundred bytes. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** What is kept of an answer: enough for an error message, never a receiver's whole page. */
const MAX_ANSWER_BYTES = 1024;

export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface OutboundAnswer {
  /** The HTTP status, or null when there was no answer. */
  status: number | null;
  /** The start of the answer's body, or why there was none. */
  answer: string;
}

/** Why the URL cannot be used for a channel, or null when it can. */
export function outboundUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be http or https';
  if (url.username || url.password) return 'url must not carry credentials';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || (!host.includes('.') && !isIP(host))) {
    return 'url must be on a public host';
  }
  if (isIP(host) && !isPublicAddress(host)) return 'url must be on a public address';
  return null;
}

/** POSTs the request through the rules above; never throws. */
export function sendOutbound(
  request: OutboundRequest,
  allowPrivate: boolean,
): Promise<OutboundAnswer> {
  const problem = outboundUrlProblem(request.url, allowPrivate);
  if (problem) return Promise.resolve({ status: null, answer: `Not sent: ${problem}` });
  const body = Buffer.from(request.body);
  if (body.length > MAX_REQUEST_BYTES) {
    return Promise.resolve({ status: null, answer: 'Not sent: the message is too large' });
  }
  const url = new URL(request.url);
  const send = url.protocol === 'https:' ? https.request : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(body.length) },
        timeout: TIMEOUT_MS,
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept >= MAX_ANSWER_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - kept));
          kept += chunk.length;
          // Enough read: the rest is not waited for.
          if (kept >= MAX_ANSWER_BYTES) response.destroy();
        });
        const done = () =>
          finish({
            status: response.statusCode ?? null,
            answer: Buffer.concat(chunks).toString('utf8'),
          });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    outgoing.on('timeout', () => {
      outgoing.destroy();
      finish({ status: null, answer: 'No answer within 10 seconds' });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'ENOTPUBLIC'
          ? 'the host resolves to a non-public address'
          : (error.code ?? 'connection failed');
      finish({ status: null, answer: `Not delivered: ${reason}` });
    });
    outgoing.end(body);
  });
}
