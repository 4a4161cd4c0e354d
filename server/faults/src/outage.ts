// outage: PostgreSQL reached through a TCP proxy on loopback that the harness cuts and restores
// (the shared PostgreSQL server is never stopped): 503s, no hang, no crash, then recovery.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateTodoBody, Todo } from '@tally/contract';
import { freshPostgres } from './lib/database.js';
import { boundPort, request } from './lib/http.js';
import { check, results } from './lib/report.js';
import { startServer, stopServer } from './lib/server.js';
import { PG_ADMIN } from './lib/settings.js';
import { signUp } from './lib/users.js';

interface TcpProxy {
  /** Listens (again, on the same port after a cut) and resolves that port. */
  listen: () => Promise<number>;
  readonly port: number;
  /** Closes the listener and destroys every open connection. */
  cut: () => Promise<void>;
}

function tcpProxy(targetPort: number): TcpProxy {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<number>((resolve) => {
      const listening = net.createServer((client) => {
        const upstream = net.connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server = listening;
      listening.listen(port, '127.0.0.1', () => {
        port = boundPort(listening);
        resolve(port);
      });
    });
  return {
    listen,
    get port() {
      return port;
    },
    async cut() {
      const listening = server;
      if (listening === null) throw new Error('the proxy never listened');
      await new Promise<void>((resolve) => {
        listening.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

/** The `error` sentence of an error answer, if the body is one. */
const errorSentence = (body: unknown): string | undefined =>
  typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
    ? body.error
    : undefined;

export async function outage(): Promise<void> {
  console.info('\n== PostgreSQL going away (a TCP proxy on loopback, cut and restored)');
  const database = await freshPostgres('outage');
  const pgPort = Number(new URL(PG_ADMIN).port || 5432);
  const proxy = tcpProxy(pgPort);
  await proxy.listen();
  const url = new URL(database.url);
  url.port = String(proxy.port);
  url.hostname = '127.0.0.1';
  const server = await startServer({ ...database.env, DATABASE_URL: url.toString() });
  try {
    const user = await signUp(server.port);
    await request(server.port, 'POST', '/api/todos', {
      body: { title: 'before' } satisfies CreateTodoBody,
      token: user.token,
    });
    await proxy.cut();
    const timed = async (method: string, target: string, body?: CreateTodoBody) => {
      const started = Date.now();
      const r = await request(server.port, method, target, {
        body,
        token: user.token,
        timeout: 20_000,
      });
      return { ...r, ms: Date.now() - started };
    };
    const health = await timed('GET', '/api/health');
    const list = await timed('GET', '/api/todos');
    const create = await timed('POST', '/api/todos', { title: 'during' });
    for (const [name, r] of Object.entries({ health, list, create })) {
      check(r.status === 503, `outage: ${name} answered ${r.status ?? r.error}, expected 503`);
      const sentence = errorSentence(r.body);
      check(
        sentence !== undefined && !/select|insert|postgres|ECONN/i.test(sentence),
        `outage: ${name} body ${JSON.stringify(r.body)}`,
      );
      check(r.ms < 8000, `outage: ${name} took ${r.ms} ms`);
    }
    check(server.child.exitCode === null, 'outage: the server died');
    await proxy.listen();
    const restoredAt = Date.now();
    let back: number | null = null;
    while (Date.now() - restoredAt < 30_000) {
      const h = await request(server.port, 'GET', '/api/health');
      if (h.status === 200) {
        back = Date.now() - restoredAt;
        break;
      }
      await sleep(200);
    }
    check(back !== null, 'outage: service did not come back within 30 s');
    const after = await request<Todo[]>(server.port, 'GET', '/api/todos', { token: user.token });
    check(
      after.status === 200 && after.body.some((t) => t.title === 'before'),
      `outage: after recovery ${after.status}`,
    );
    check(!after.body?.some((t) => t.title === 'during'), 'outage: a refused write appeared');
    results.outage_postgres = {
      health: health.status,
      healthMs: health.ms,
      call: list.status,
      callMs: list.ms,
      write: create.status,
      writeMs: create.ms,
      recoveredAfterMs: back,
    };
    console.info(
      `  cut: health ${health.status} in ${health.ms} ms, GET ${list.status} in ${list.ms} ms, POST ${create.status} in ${create.ms} ms; back ${back} ms after the proxy returned`,
    );
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await proxy.cut().catch(() => undefined);
    await database.cleanup();
  }
}
