import https from 'node:https';
import type webpush from 'web-push';
import { httpRequest } from '../shared/http-request.js';
import { publicOnlyLookup } from '../shared/public-address.js';
import { endpointProblem } from './push-endpoint.js';
import type { VapidKeys } from '../secrets.js';

interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What became of one push: delivered, gone (the subscription ended: 404/410), or failed. */
export type PushOutcome = 'sent' | 'gone' | 'failed';

export interface PushSender {
  send(target: PushTarget, payload: string, topic: string): Promise<PushOutcome>;
}

const TIMEOUT_MS = 10_000;
/** A reminder an hour late is no use: the push service drops it after that. */
const TTL_SECONDS = 3_600;

/**
 * Sends Web Push messages (RFC 8030/8291/8292): web-push encrypts the payload (aes128gcm) and
 * signs the VAPID header; the request itself is made here, so every connection goes through the
 * public-address check (push-endpoint.ts), redirects are not followed, and a slow push service
 * cannot hold a poller for more than 10 s.
 */
export function createPushSender(options: {
  vapid: VapidKeys;
  subject: string;
  /** Only for the tests' local push service (plain http on loopback). */
  allowLoopback: boolean;
}): PushSender {
  const vapidDetails = { subject: options.subject, ...options.vapid };
  return {
    async send(target, payload, topic) {
      // Checked when subscribed too; checked again in case the rules changed since.
      if (endpointProblem(target.endpoint, options.allowLoopback) !== null) return 'gone';
      // Loaded on the first push, not at start (memory: docs/performance.md).
      const { default: webpush } = await import('web-push');
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        { vapidDetails, TTL: TTL_SECONDS, urgency: 'high', topic, contentEncoding: 'aes128gcm' },
      );
      const status = await post(details.endpoint, details.headers, details.body);
      if (status === 404 || status === 410) return 'gone';
      return status !== null && status >= 200 && status < 300 ? 'sent' : 'failed';
    },
  };
}

/** POSTs the message; the answer's status, or null when there was none. */
function post(
  endpoint: string,
  headers: webpush.Headers,
  body: Buffer | null,
): Promise<number | null> {
  const url = new URL(endpoint);
  const request = url.protocol === 'https:' ? https.request : httpRequest;
  return new Promise((resolve) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
        timeout: TIMEOUT_MS,
        // Loopback http is only ever the tests' (endpointProblem let it through).
        ...(url.protocol === 'https:' ? { lookup: publicOnlyLookup } : {}),
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? null));
        response.on('error', () => resolve(null));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('push service timed out')));
    outgoing.on('error', () => resolve(null));
    outgoing.end(body ?? undefined);
  });
}
