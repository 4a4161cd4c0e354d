// The harness's HTTP client: one request per fresh connection, so a killed or stopping server
// shows up in each request's own outcome instead of a shared pool's.
import http from 'node:http';
import type net from 'node:net';

/**
 * What a request came to: a status and its parsed body, or the error code of a connection that
 * failed. `T` is the body the call answers with when it succeeds; the suites read it only after
 * checking the status, or where any other answer should stop the run as a harness error.
 */
export type Answer<T = unknown> =
  | { status: number; body: T; error?: undefined }
  | { status?: undefined; body?: undefined; error: string };

export interface RequestOptions {
  body?: unknown;
  token?: string;
  timeout?: number;
}

/** One request on a fresh connection; never rejects. */
export function request<T = unknown>(
  port: number,
  method: string,
  url: string,
  { body, token, timeout = 15_000 }: RequestOptions = {},
): Promise<Answer<T>> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        timeout,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: unknown = null;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = { unparsable: text.slice(0, 200) };
          }
          // Always set on a client's response; the fallback only satisfies the type.
          resolve({ status: res.statusCode ?? 0, body: json as T });
        });
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ error: error.code ?? error.message }),
        );
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
    req.end(payload);
  });
}

/** The body of an answer that must have come: a failed connection stops the run. */
export function bodyOf<T>(answer: Answer<T>): T {
  if (answer.error !== undefined) throw new Error(`no answer: ${answer.error}`);
  return answer.body;
}

/** A 2xx status. */
export const succeeded = (answer: Answer): boolean =>
  answer.status !== undefined && answer.status >= 200 && answer.status < 300;

/** The port a listening TCP server is bound to. */
export function boundPort(server: net.Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('not a listening TCP server');
  return address.port;
}
