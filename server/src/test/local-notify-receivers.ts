import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * Stand-ins for ntfy, Gotify and Pushover, and a webhook receiver, on loopback in the test
 * process. Each takes only what its service's documented publish API takes (method, path,
 * headers, fields) and refuses anything else with the status the real one answers, so a test
 * that passes here sent a request the real service would take. The webhook receiver checks the
 * signature with the Standard Webhooks reference library.
 */

export const NTFY_TOKEN = 'tk_testtokentesttokentesttoken12';
export const GOTIFY_TOKEN = 'AbCdEfGhIjKlMnO';
export const PUSHOVER_TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
export const PUSHOVER_USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';

interface Received {
  service: 'ntfy' | 'gotify' | 'pushover' | 'webhook';
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed fields: JSON for ntfy, Gotify and webhooks, the form for Pushover. */
  fields: Record<string, unknown>;
}

export interface LocalReceivers {
  /** Origin of the server, e.g. http://127.0.0.1:1234 */
  origin: string;
  /** Every accepted message, oldest first. */
  received: Received[];
  /** Messages refused (wrong method, path, header or field), with why. */
  refused: string[];
  /** The webhook at /hooks/<name> answers 500 to its next `times` requests. */
  failNext(name: string, times: number): void;
  /** The webhook at /hooks/<name> answers 500 from now on (until failNext(name, 0)). */
  failAlways(name: string, failing: boolean): void;
  /** The secret the webhook at /hooks/<name> verifies with. */
  setSecret(name: string, secret: string): void;
  close(): Promise<void>;
}

/** The fields of ntfy's JSON publish (docs.ntfy.sh/publish/#publish-as-json). */
const NTFY_FIELDS = new Set([
  'topic',
  'message',
  'title',
  'tags',
  'priority',
  'actions',
  'click',
  'attach',
  'markdown',
  'icon',
  'filename',
  'delay',
  'email',
  'call',
]);

/**
 * ntfy's action buttons (docs.ntfy.sh/publish/#action-buttons): at most three; `view`, `http`
 * or `broadcast` with a label; view and http need a URL; http may name its method, headers and
 * body, and `clear`.
 */
function ntfyActionsValid(actions: unknown): boolean {
  if (!Array.isArray(actions) || actions.length > 3) return false;
  const keys = new Set([
    'action',
    'label',
    'url',
    'method',
    'headers',
    'body',
    'clear',
    'extras',
    'intent',
  ]);
  return actions.every((action: unknown) => {
    if (typeof action !== 'object' || action === null) return false;
    const a = action as Record<string, unknown>;
    if (Object.keys(a).some((key) => !keys.has(key))) return false;
    if (!['view', 'http', 'broadcast'].includes(String(a.action))) return false;
    if (typeof a.label !== 'string' || a.label === '') return false;
    if (a.action !== 'broadcast' && (typeof a.url !== 'string' || !/^https?:\/\//.test(a.url))) {
      return false;
    }
    return a.method === undefined || ['GET', 'POST', 'PUT', 'DELETE'].includes(String(a.method));
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** `port`: a fixed one (the e2e run's, which Tally's settings name); any free one without. */
export async function startLocalReceivers(port = 0): Promise<LocalReceivers> {
  const received: Received[] = [];
  const refused: string[] = [];
  const failures = new Map<string, number>();
  const failing = new Set<string>();
  const secrets = new Map<string, string>();

  const refuse = (response: ServerResponse, status: number, why: string) => {
    refused.push(why);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: why }));
  };
  const json = (response: ServerResponse, body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const path = request.url ?? '';
      const type = request.headers['content-type'] ?? '';
      if (request.method !== 'POST') return refuse(response, 405, `method ${request.method}`);

      // ntfy: JSON publishing to the root URL (docs.ntfy.sh/publish/#publish-as-json).
      if (path.startsWith('/ntfy/')) {
        if (path !== '/ntfy/') return refuse(response, 404, `ntfy path ${path}`);
        const fields = parseJson(body);
        if (!type.startsWith('application/json') || !fields) {
          return refuse(response, 400, 'ntfy: not JSON');
        }
        if (typeof fields.topic !== 'string' || !/^[-_A-Za-z0-9]{1,64}$/.test(fields.topic)) {
          return refuse(response, 400, 'ntfy: topic');
        }
        if (typeof fields.message !== 'string') return refuse(response, 400, 'ntfy: message');
        const unknown = Object.keys(fields).find((key) => !NTFY_FIELDS.has(key));
        if (unknown) return refuse(response, 400, `ntfy: field ${unknown}`);
        if (fields.actions !== undefined && !ntfyActionsValid(fields.actions)) {
          return refuse(response, 400, 'ntfy: actions');
        }
        const auth = request.headers.authorization;
        // The test topic "private" needs the token, as a protected topic does.
        if (fields.topic === 'private' && auth !== `Bearer ${NTFY_TOKEN}`) {
          return refuse(response, 403, 'ntfy: forbidden');
        }
        received.push({ service: 'ntfy', path, headers: request.headers, fields });
        return json(response, { id: 'aBcD', time: 1, event: 'message', ...fields });
      }

      // Gotify: POST /message with the app token (gotify.net/api-docs).
      if (path.startsWith('/gotify/')) {
        if (path !== '/gotify/message') return refuse(response, 404, `gotify path ${path}`);
        if (request.headers['x-gotify-key'] !== GOTIFY_TOKEN) {
          return refuse(response, 401, 'gotify: token');
        }
        const fields = parseJson(body);
        if (!type.startsWith('application/json') || !fields || typeof fields.message !== 'string') {
          return refuse(response, 400, 'gotify: message');
        }
        received.push({ service: 'gotify', path, headers: request.headers, fields });
        return json(response, { id: 1, appid: 1, ...fields });
      }

      // Pushover: POST /1/messages.json with form fields (pushover.net/api).
      if (path.startsWith('/pushover/')) {
        if (path !== '/pushover/1/messages.json') {
          return refuse(response, 404, `pushover path ${path}`);
        }
        if (!type.startsWith('application/x-www-form-urlencoded')) {
          return refuse(response, 400, 'pushover: not a form');
        }
        const fields = Object.fromEntries(new URLSearchParams(body));
        if (fields.token !== PUSHOVER_TOKEN) return refuse(response, 400, 'pushover: token');
        if (fields.user !== PUSHOVER_USER) return refuse(response, 400, 'pushover: user');
        if (!fields.message) return refuse(response, 400, 'pushover: message');
        received.push({ service: 'pushover', path, headers: request.headers, fields });
        return json(response, { status: 1, request: '647d2300-702c-4b38-8b2f-d56326ae460b' });
      }

      // A webhook receiver: verifies the Standard Webhooks signature, then answers.
      const hook = /^\/hooks\/([a-z0-9-]+)$/.exec(path)?.[1];
      if (hook) {
        const secret = secrets.get(hook);
        if (!secret) return refuse(response, 404, `no hook ${hook}`);
        try {
          new Webhook(secret).verify(body, {
            'webhook-id': String(request.headers['webhook-id']),
            'webhook-timestamp': String(request.headers['webhook-timestamp']),
            'webhook-signature': String(request.headers['webhook-signature']),
          });
        } catch (error) {
          return refuse(response, 401, `webhook ${hook}: ${String(error)}`);
        }
        const left = failures.get(hook) ?? 0;
        if (left > 0 || failing.has(hook)) {
          failures.set(hook, Math.max(0, left - 1));
          response.writeHead(500).end('down');
          return;
        }
        received.push({
          service: 'webhook',
          path,
          headers: request.headers,
          fields: parseJson(body) ?? {},
        });
        response.writeHead(204).end();
        return;
      }
      return refuse(response, 404, `path ${path}`);
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${address.port}`,
    received,
    refused,
    failNext: (name, times) => failures.set(name, times),
    failAlways: (name, on) => (on ? failing.add(name) : failing.delete(name)),
    setSecret: (name, secret) => secrets.set(name, secret),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
