import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, pgUrl, redisUrl, type TestDatabase } from '../test/helpers.js';

/**
 * Two real server processes on one PostgreSQL database (as behind a load balancer): nothing a
 * request needs may live in one process's memory. Runs only with TEST_DATABASE_URL; the shared
 * rate-limit case also needs Redis (TEST_REDIS_URL; in CI always, test/helpers.ts).
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECRET = 'multi-process-test-secret-at-least-32-bytes';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Server {
  url: string;
  child: ChildProcess;
}

async function startServer(databaseUrl: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@tally/source', 'src/main.ts'],
    {
      cwd: serverDir,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        JWT_SECRET: SECRET,
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: '',
        WEB_CONCURRENCY: '1',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${stderr}`);
}

async function stopServer(server: Server | undefined) {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

const refreshCookie = (response: Response) => {
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('tally_refresh=') && !c.startsWith('tally_refresh=;'));
  if (!cookie) throw new Error('no refresh cookie');
  return cookie.split(';')[0] as string;
};

/** An event stream read as text until it holds `expected` (node:http: one connection, closed with it). */
function openEvents(url: string, token: string) {
  return new Promise<{ until(expected: string): Promise<void>; ended: Promise<void> }>(
    (resolve, reject) => {
      const request = http.get(url, {
        agent: false,
        headers: { authorization: `Bearer ${token}` },
      });
      request.once('error', reject);
      request.once('response', (response) => {
        let text = '';
        const waiters = new Set<() => void>();
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          for (const wake of [...waiters]) wake();
        });
        const ended = new Promise<void>((done) => response.once('close', done));
        resolve({
          ended,
          until: (expected) =>
            new Promise((found, fail) => {
              const timer = setTimeout(() => fail(new Error(`no ${expected} in ${text}`)), 5_000);
              const check = () => {
                if (!text.includes(expected)) return;
                clearTimeout(timer);
                waiters.delete(check);
                found();
              };
              waiters.add(check);
              check();
            }),
        });
      });
    },
  );
}

describe.skipIf(!pgUrl)('two server processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let a: Server;
  let b: Server;
  // A fresh client address per run, so counters left in Redis by an earlier run do not count.
  const clientIp = `${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { rows } = await import('kysely').then(({ sql }) =>
      sql<{ schema: string }>`select current_schema() as schema`.execute(database.handle.db),
    );
    const url = new URL(pgUrl as string);
    url.searchParams.set('options', `-c search_path=${rows[0]?.schema ?? 'public'}`);
    // Something deleted 31 days ago, for the trash purge that each process runs at start.
    const db = database.handle.db;
    const [owner] = await db
      .insertInto('users')
      .values({
        username: 'mp_purge',
        username_lower: 'mp_purge',
        email: 'mp_purge@example.com',
        email_lower: 'mp_purge@example.com',
        password_hash: null,
        google_subject: null,
        created_at: Date.now(),
        email_verified_at: null,
      })
      .returning('id')
      .execute();
    await db
      .insertInto('trashed_todos')
      .values({
        id: 1_000_000,
        user_id: owner?.id ?? 0,
        trashed_at: Date.now() - 31 * 86_400_000,
        todo: '{}',
      })
      .execute();
    const env = {
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT_PER_MINUTE: '4',
      REDIS_URL: redisUrl ?? '',
    };
    [a, b] = await Promise.all([
      startServer(url.toString(), env),
      startServer(url.toString(), env),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([stopServer(a), stopServer(b)]);
    await database?.drop();
  });

  it('serves one user’s todos through either process', async () => {
    const username = `mp_${randomBytes(4).toString('hex')}`;
    const register = await fetch(`${a.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.1.${clientIp}` },
      body: JSON.stringify({
        username,
        email: `${username}@example.com`,
        password: 'long enough pw',
      }),
    });
    expect(register.status).toBe(201);
    const { accessToken } = (await register.json()) as { accessToken: string };
    const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };

    const created = await fetch(`${a.url}/api/todos`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'made on A' }),
    });
    expect(created.status).toBe(201);
    const todo = (await created.json()) as { id: number; title: string };

    const listedOnB = (await (await fetch(`${b.url}/api/todos`, { headers: auth })).json()) as {
      id: number;
    }[];
    expect(listedOnB.map((t) => t.id)).toEqual([todo.id]);

    const updatedOnB = await fetch(`${b.url}/api/todos/${todo.id}`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ title: 'changed on B', completed: true }),
    });
    expect(updatedOnB.status).toBe(200);
    const listedOnA = (await (await fetch(`${a.url}/api/todos`, { headers: auth })).json()) as {
      title: string;
      completed: boolean;
    }[];
    expect(listedOnA).toMatchObject([{ title: 'changed on B', completed: true }]);

    const deletedOnB = await fetch(`${b.url}/api/todos/${todo.id}`, {
      method: 'DELETE',
      headers: { authorization: auth.authorization },
    });
    expect(deletedOnB.status).toBe(204);
    expect(await (await fetch(`${a.url}/api/todos`, { headers: auth })).json()).toEqual([]);
  });

  it('purges the old trash once, whichever process gets there first', async () => {
    const db = database.handle.db;
    const lease = () =>
      db.selectFrom('job_leases').selectAll().where('name', '=', 'trash-purge').executeTakeFirst();
    for (let i = 0; i < 100 && (await lease())?.runs !== 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const old = await db
      .selectFrom('trashed_todos')
      .select('id')
      .where('id', '=', 1_000_000)
      .execute();
    expect(old).toEqual([]);
    expect(await lease()).toMatchObject({ runs: 1, lease_until: 0 });
  });

  it('lets a refresh token be used once across both processes, and revokes its family on reuse', async () => {
    const username = `mp_${randomBytes(4).toString('hex')}`;
    const headers = { 'x-forwarded-for': `10.2.${clientIp}` };
    const register = await fetch(`${a.url}/api/auth/register`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        username,
        email: `${username}@example.com`,
        password: 'long enough pw',
      }),
    });
    const first = refreshCookie(register);

    const renewedOnA = await fetch(`${a.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { ...headers, cookie: first },
    });
    expect(renewedOnA.status).toBe(200);
    const second = refreshCookie(renewedOnA);

    const reusedOnB = await fetch(`${b.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { ...headers, cookie: first },
    });
    expect(reusedOnB.status).toBe(401);
    // The reuse revoked the whole family: the newer token is dead on either process.
    const afterTheft = await fetch(`${a.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { ...headers, cookie: second },
    });
    expect(afterTheft.status).toBe(401);
  });

  it.skipIf(!redisUrl)('shares auth rate limits between the processes through Redis', async () => {
    const headers = { 'x-forwarded-for': `10.3.${clientIp}` };
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a]) {
      const response = await fetch(`${server.url}/api/auth/logout`, { method: 'POST', headers });
      statuses.push(response.status);
    }
    // 4 a minute per address: the fifth is refused though each process saw at most three.
    expect(statuses).toEqual([204, 204, 204, 204, 429]);
  });

  it('brings a change made through one process to an event stream held by the other', async () => {
    const username = `mp_${randomBytes(4).toString('hex')}`;
    const register = await fetch(`${a.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.4.${clientIp}` },
      body: JSON.stringify({
        username,
        email: `${username}@example.com`,
        password: 'long enough pw',
      }),
    });
    const { accessToken } = (await register.json()) as { accessToken: string };
    const stream = await openEvents(`${b.url}/api/events`, accessToken);
    await stream.until('event: ready');
    const created = await fetch(`${a.url}/api/todos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'made on A' }),
    });
    const { id } = (await created.json()) as { id: number };
    await stream.until(`data: {"type":"todo.created","id":${id}}`);

    // SIGTERM ends the open stream, so the process exits without waiting for it.
    const started = Date.now();
    await stopServer(b);
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe.skipIf(!pgUrl || !redisUrl)('/metrics under WEB_CONCURRENCY=2 (node:cluster)', () => {
  const token = 'cluster-metrics-token-0123456789';
  let database: TestDatabase;
  let server: Server;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { rows } = await import('kysely').then(({ sql }) =>
      sql<{ schema: string }>`select current_schema() as schema`.execute(database.handle.db),
    );
    const url = new URL(pgUrl as string);
    url.searchParams.set('options', `-c search_path=${rows[0]?.schema ?? 'public'}`);
    server = await startServer(url.toString(), {
      WEB_CONCURRENCY: '2',
      REDIS_URL: redisUrl ?? '',
      METRICS_TOKEN: token,
    });
  }, 60_000);

  afterAll(async () => {
    await stopServer(server);
    await database?.drop();
  });

  it('answers every scrape with the sum over both processes', async () => {
    // The start's own health check succeeded once; 20 more, spread over both workers.
    for (let i = 0; i < 20; i++) await fetch(`${server.url}/api/health`);
    const counts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      counts.push(
        /tally_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} (\d+)/.exec(
          text,
        )?.[1] ?? 'missing',
      );
    }
    expect(counts).toEqual(['21', '21', '21', '21']);
  }, 60_000);
});
