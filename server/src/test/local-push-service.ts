import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

/**
 * A stand-in push service on loopback, inside the test process: it takes the Web Push POSTs
 * Tally makes and keeps them, and a browser's side of a subscription (a P-256 key pair and auth
 * secret, made as a browser makes them) decrypts each message. Nothing reaches a real push
 * service.
 */
interface ReceivedPush {
  /** The endpoint's path (one per browser). */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface LocalPushService {
  /** A new browser: its subscription (as PushSubscription.toJSON()) and what decrypts for it. */
  browser(): TestBrowser;
  /** Every push received so far, oldest first. */
  received: ReceivedPush[];
  /** Answer this status to pushes for the path (e.g. 410: the subscription is gone). */
  answer(path: string, status: number): void;
  close(): Promise<void>;
}

interface TestBrowser {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  path: string;
  /** The decrypted payloads of the pushes this browser received, parsed. */
  messages(): unknown[];
}

function decrypt(push: ReceivedPush, keys: ECDH, auth: Buffer): unknown {
  const plain = ece.decrypt(push.body, {
    version: 'aes128gcm',
    privateKey: keys,
    authSecret: auth,
  });
  return JSON.parse(plain.toString('utf8'));
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      response.statusCode = answers.get(path) ?? 201;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let browsers = 0;
  return {
    received,
    answer: (path, status) => answers.set(path, status),
    browser() {
      browsers += 1;
      const path = `/push/${browsers}-${randomBytes(4).toString('hex')}`;
      const keys = createECDH('prime256v1');
      keys.generateKeys();
      const auth = randomBytes(16);
      return {
        path,
        subscription: {
          endpoint: `http://127.0.0.1:${port}${path}`,
          keys: {
            p256dh: keys.getPublicKey().toString('base64url'),
            auth: auth.toString('base64url'),
          },
        },
        messages: () =>
          received.filter((push) => push.path === path).map((push) => decrypt(push, keys, auth)),
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
