import http from 'node:http';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  accountApi,
  authApi,
  filtersApi,
  groupsApi,
  LIVE_CLIENT_HEADER,
  LIVE_MAX_STREAMS_PER_USER,
  todosApi,
  tokensApi,
  trashApi,
} from '@tally/contract';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  as,
  createTestApp,
  createTestDatabase,
  pgUrl,
  redisUrl,
  refreshCookieOf,
  registerUser,
  signInAgain,
  type TestContext,
  type TestDatabase,
  type TestUser,
} from '../test/helpers.js';

/**
 * GET /api/events over a real socket (inject waits for an answer's end, which a stream never
 * reaches): what a user's other clients hear, when the stream ends, and that nothing is left
 * behind. The cross-process cases run on PostgreSQL (and Redis when TEST_REDIS_URL is set; in CI
 * always, test/helpers.ts).
 */

const HEARTBEAT_MS = 40;

// Every case asserts something: one that only waits for a stream must not pass by waiting.
beforeEach(() => {
  expect.hasAssertions();
});

interface Stream {
  status: number;
  headers: Headers;
  /** The blocks received so far (the text between blank lines). */
  blocks: string[];
  /** Waits for a block that matches, returning it. */
  next(match: (block: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * A stream over node:http on a connection of its own, closed with it (fetch's pool may open a
 * spare connection that never sends a request, which would hold the server's close up).
 */
function openStream(baseUrl: string, token: string, headers = {}): Promise<Stream> {
  return new Promise((resolveOpen, rejectOpen) => {
    const request = http.get(`${baseUrl}/api/events`, {
      agent: false,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
    request.once('error', rejectOpen);
    request.once('response', (response) => {
      const blocks: string[] = [];
      const waiters = new Set<() => void>();
      let done = false;
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          blocks.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
        for (const wake of [...waiters]) wake();
      });
      const ended = new Promise<void>((resolve) => {
        const finish = () => {
          done = true;
          for (const wake of [...waiters]) wake();
          resolve();
        };
        response.once('end', finish);
        response.once('close', finish);
        response.once('error', finish);
      });
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (typeof value === 'string') responseHeaders.set(name, value);
      }
      resolveOpen({
        status: response.statusCode ?? 0,
        headers: responseHeaders,
        blocks,
        ended,
        close: () => request.destroy(),
        next(match, timeoutMs = 3_000) {
          return new Promise((resolve, reject) => {
            let seen = 0;
            const check = () => {
              for (; seen < blocks.length; seen++) {
                const block = blocks[seen] as string;
                if (match(block)) {
                  finish();
                  return resolve(block);
                }
              }
              if (done) {
                finish();
                reject(new Error(`stream ended; got ${JSON.stringify(blocks)}`));
              }
            };
            const timer = setTimeout(() => {
              finish();
              reject(
                new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(blocks)}`),
              );
            }, timeoutMs);
            const finish = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          });
        },
      });
    });
  });
}

const isReady = (block: string) => block.startsWith('event: ready');
const dataOf = (block: string) =>
  block.startsWith('data: ') ? (JSON.parse(block.slice(6)) as { type: string; id?: number }) : null;
const event = (type: string, id?: number) => (block: string) => {
  const data = dataOf(block);
  return data?.type === type && (id === undefined || data.id === id);
};

async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

const waitUntil = async (condition: () => boolean | Promise<boolean>, timeoutMs = 3_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('GET /api/events', () => {
  let ctx: TestContext;
  let url: string;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp({ liveHeartbeatMs: HEARTBEAT_MS });
    ctx.clock.current = Date.now();
    url = await listen(ctx);
    alice = await registerUser(ctx.app);
    bob = await registerUser(ctx.app);
  });
  afterAll(() => ctx.close());

  it('tells the user’s streams each change to todos and groups, and no one else’s', async () => {
    const first = await openStream(url, alice.token, { 'accept-encoding': 'gzip, br' });
    const second = await openStream(url, alice.token);
    const other = await openStream(url, bob.token);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    // Never compressed (a compressor holds events back); the security headers as on any answer.
    expect(first.headers.get('content-encoding')).toBeNull();
    expect(first.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    await Promise.all([first, second, other].map((stream) => stream.next(isReady)));

    const call = apiClient(ctx.app, alice);
    const group = (
      await call(groupsApi.create, { body: { name: 'Home', color: '#3B82F6' } })
    ).json<{ id: number }>();
    const todo = (await call(todosApi.create, { body: { title: 'Live' } })).json<{ id: number }>();
    await call(todosApi.update, {
      params: { id: todo.id },
      body: { title: 'Live', completed: true },
    });
    await call(todosApi.patch, { params: { id: todo.id }, body: { completed: false } });
    await call(groupsApi.update, {
      params: { id: group.id },
      body: { name: 'Away', color: '#EF4444' },
    });
    await call(todosApi.remove, { params: { id: todo.id } });
    await call(groupsApi.remove, { params: { id: group.id } });
    // A refused change announces nothing.
    await call.unchecked(todosApi.update, { params: { id: todo.id }, body: { title: 'gone' } });

    for (const stream of [first, second]) {
      await stream.next(event('group.deleted', group.id));
      expect(stream.blocks.map(dataOf).filter(Boolean)).toEqual([
        { type: 'group.created', id: group.id },
        { type: 'todo.created', id: todo.id },
        { type: 'todo.updated', id: todo.id },
        { type: 'todo.updated', id: todo.id },
        { type: 'group.updated', id: group.id },
        { type: 'todo.deleted', id: todo.id },
        { type: 'group.deleted', id: group.id },
      ]);
    }
    await apiClient(ctx.app, bob)(todosApi.create, { body: { title: 'Bob’s' } });
    await other.next(event('todo.created'));
    expect(other.blocks.map(dataOf).filter(Boolean)).toHaveLength(1);
    expect(first.blocks.some(event('todo.created', todo.id + 1))).toBe(false);
    for (const stream of [first, second, other]) stream.close();
  });

  it('tells the user’s streams each change to a saved filter', async () => {
    const stream = await openStream(url, alice.token);
    await stream.next(isReady);
    const call = apiClient(ctx.app, alice);
    const body = { name: 'Errands', color: '#3B82F6', query: 'today' } as const;
    const filter = (await call(filtersApi.create, { body })).data();
    await call(filtersApi.update, { params: { id: filter.id }, body: { ...body, query: 'p1' } });
    await call(filtersApi.remove, { params: { id: filter.id } });
    await stream.next(event('filter.deleted', filter.id));
    expect(stream.blocks.map(dataOf).filter(Boolean)).toEqual([
      { type: 'filter.created', id: filter.id },
      { type: 'filter.updated', id: filter.id },
      { type: 'filter.deleted', id: filter.id },
    ]);
    stream.close();
  });

  it('tells the user’s streams when a reminder of theirs goes out', async () => {
    const stream = await openStream(url, alice.token);
    await stream.next(isReady);
    // Due in UTC two minutes from the clock, reminded at the due time.
    const due = new Date(ctx.clock.current + 2 * 60_000);
    const todo = (
      await apiClient(ctx.app, alice)(todosApi.create, {
        body: {
          title: 'Take vitamins',
          dueDate: due.toISOString().slice(0, 10),
          dueTime: due.toISOString().slice(11, 16),
          remindMinutesBefore: 0,
        },
        headers: { 'x-time-zone': 'UTC' },
      })
    ).json<{ id: number }>();
    ctx.clock.current += 3 * 60_000;
    expect((await ctx.app.sendDueReminders()).claimed).toBe(1);
    // Back to the real time the other cases' tokens and sessions are checked by.
    ctx.clock.current = Date.now();
    expect(dataOf(await stream.next(event('reminder.fired', todo.id)))).toEqual({
      type: 'reminder.fired',
      id: todo.id,
    });
    stream.close();
  });

  it('tells of bulk changes and of the trash', async () => {
    const user = await registerUser(ctx.app);
    const stream = await openStream(url, user.token);
    await stream.next(isReady);
    const call = apiClient(ctx.app, user);
    const { id } = (await call(todosApi.create, { body: { title: 'Many' } })).json<{
      id: number;
    }>();
    await call(todosApi.bulk, { body: { ids: [id], action: 'complete' } });
    await call(todosApi.remove, { params: { id } });
    await call(trashApi.restore, { params: { id } });
    await call(todosApi.remove, { params: { id } });
    await call(trashApi.empty);
    await stream.next(event('todos.changed'));
    await waitUntil(() => stream.blocks.filter(dataOf).length === 6);
    expect(stream.blocks.map(dataOf).filter(Boolean)).toEqual([
      { type: 'todo.created', id },
      { type: 'todos.changed' },
      { type: 'todo.deleted', id },
      { type: 'todo.created', id },
      { type: 'todo.deleted', id },
      { type: 'todos.changed' },
    ]);
    stream.close();
  });

  it('tells of a moved todo and of a sort chosen for a view', async () => {
    const user = await registerUser(ctx.app);
    const stream = await openStream(url, user.token);
    await stream.next(isReady);
    const call = apiClient(ctx.app, user);
    const add = async (title: string) =>
      (await call(todosApi.create, { body: { title } })).json<{
        id: number;
      }>().id;
    const a = await add('a');
    const b = await add('b');
    await call(todosApi.move, { params: { id: a }, body: { beforeId: b } });
    await call(todosApi.setSort, { body: { view: 'all', sort: 'manual' } });
    await stream.next(event('sorts.updated'));
    expect(stream.blocks.map(dataOf).filter(Boolean)).toEqual([
      { type: 'todo.created', id: a },
      { type: 'todo.created', id: b },
      { type: 'todo.updated', id: a },
      { type: 'sorts.updated' },
    ]);
    stream.close();
  });

  it('names the tab that made a change, when its request named one (X-Tally-Client)', async () => {
    const user = await registerUser(ctx.app);
    const stream = await openStream(url, user.token);
    await stream.next(isReady);
    const call = apiClient(ctx.app, user);
    const tab = 'tab_0123456789abcdef';
    const mine = await call(todosApi.create, {
      body: { title: 'mine' },
      headers: { [LIVE_CLIENT_HEADER]: tab },
    });
    await call(todosApi.patch, {
      params: { id: mine.data().id },
      body: { completed: true },
      headers: { [LIVE_CLIENT_HEADER]: tab },
    });
    await call(todosApi.setSort, {
      body: { view: 'all', sort: 'title' },
      headers: { [LIVE_CLIENT_HEADER]: tab },
    });
    // Another client, and a header that is no tab id: no name goes out.
    const theirs = await call(todosApi.create, { body: { title: 'theirs' } });
    await call(todosApi.create, {
      body: { title: 'odd' },
      headers: { [LIVE_CLIENT_HEADER]: 'not a tab id!' },
    });
    await stream.next(event('todo.created', theirs.data().id + 1));
    expect(stream.blocks.map(dataOf).filter(Boolean)).toEqual([
      { type: 'todo.created', id: mine.data().id, client: tab },
      { type: 'todo.updated', id: mine.data().id, client: tab },
      { type: 'sorts.updated', client: tab },
      { type: 'todo.created', id: theirs.data().id },
      { type: 'todo.created', id: theirs.data().id + 1 },
    ]);
    stream.close();
  });

  it('refuses a request without a valid token, in the usual JSON', async () => {
    const response = await fetch(`${url}/api/events`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Authentication required' });
    const expired = await fetch(`${url}/api/events`, {
      headers: { authorization: 'Bearer not.a.token' },
    });
    expect(expired.status).toBe(401);
  });

  it('answers HEAD with the headers alone and keeps nothing', async () => {
    const response = await as(ctx.app, alice)({ method: 'HEAD', url: '/api/events' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await waitUntil(() => ctx.app.live.stats().subscribers === 0);
  });

  it('writes a heartbeat comment and ends the stream once the access token expires', async () => {
    const user = await signInAgain(ctx.app, alice);
    const stream = await openStream(url, user.token);
    const heartbeats = () => stream.blocks.filter((block) => block === ': heartbeat').length;
    // Three heartbeats in a row: the stream stays open while the token is valid (next() fails
    // if it ends first).
    await stream.next((block) => block === ': heartbeat' && heartbeats() >= 3);
    ctx.clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000);
    expect(await endsWithin(stream, 3_000)).toBe(true);
    ctx.clock.current = Date.now();
  });

  it('ends the stream when its session ends', async () => {
    const user = await signInAgain(ctx.app, alice);
    const stream = await openStream(url, user.token);
    await stream.next(isReady);
    // The stream's own session, as that session sees it (an id not found would fall back to
    // DELETE /api/account/sessions, which ends every other session, and pass for the wrong reason).
    const sessions = await apiClient(ctx.app, user)(accountApi.sessions);
    expect(sessions.statusCode).toBe(200);
    const own = sessions.json<{ id: string; current: boolean }[]>().filter((s) => s.current);
    expect(own).toHaveLength(1);
    const id = own[0]?.id ?? '';
    const ended = await apiClient(ctx.app, alice)(accountApi.endSession, { params: { id } });
    expect(ended.statusCode).toBe(204);
    expect(await endsWithin(stream, 3_000)).toBe(true);
  });

  it(`holds at most ${LIVE_MAX_STREAMS_PER_USER} streams per user`, async () => {
    const user = await registerUser(ctx.app);
    const streams = await Promise.all(
      Array.from({ length: LIVE_MAX_STREAMS_PER_USER }, () => openStream(url, user.token)),
    );
    const refused = await fetch(`${url}/api/events`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(refused.status).toBe(429);
    streams[0]?.close();
    await waitUntil(() => ctx.app.live.stats().subscribers <= LIVE_MAX_STREAMS_PER_USER - 1);
    const again = await openStream(url, user.token);
    expect(again.status).toBe(200);
    for (const stream of [...streams, again]) stream.close();
  });

  it('leaves nothing behind after 1,000 connects and disconnects', async () => {
    const user = await registerUser(ctx.app);
    // A first stream opens the bus's listening connection, which then stays.
    const warm = await openStream(url, user.token);
    await warm.next(isReady);
    warm.close();
    await waitUntil(() => ctx.app.live.stats().subscribers === 0);
    // Less the PostgreSQL pool's clients (a socket and an idle timer each), which grow with load
    // and time out by themselves.
    const resources = () => {
      const pooled = ctx.database.handle.stats().pool?.total ?? 0;
      const counts = new Map<string, number>([
        ['TCPSocketWrap', -pooled],
        ['Timeout', -pooled],
      ]);
      for (const name of process.getActiveResourcesInfo()) {
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      return counts;
    };
    const before = resources();
    const connectionsBefore = ctx.app.live.stats().connections;

    // A few at a time: a closed stream's slot is freed when the server sees the socket close,
    // a moment after the client let go, and the per-user cap must not refuse the next.
    const TOTAL = 1_000;
    const AT_ONCE = 4;
    let opened = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (opened < TOTAL) {
          opened += 1;
          const stream = await openStream(url, user.token);
          expect(stream.status).toBe(200);
          await stream.next(isReady);
          stream.close();
          await stream.ended;
        }
      }),
    );
    await waitUntil(() => ctx.app.live.stats().subscribers === 0);
    expect(ctx.app.live.stats()).toEqual({
      users: 0,
      subscribers: 0,
      connections: connectionsBefore,
    });
    // Sockets and timers as before (the client's keep-alive sockets close with their streams).
    await waitUntil(() => {
      const after = resources();
      return ['TCPSocketWrap', 'Timeout'].every(
        (name) => (after.get(name) ?? 0) <= (before.get(name) ?? 0),
      );
    });
    // Changes still arrive after all that.
    const last = await openStream(url, user.token);
    await last.next(isReady);
    await apiClient(ctx.app, user)(todosApi.create, { body: { title: 'still live' } });
    await last.next(event('todo.created'));
    last.close();
  }, 60_000);

  it('ends open streams when the app closes, so it closes at once', async () => {
    const own = await createTestApp({ liveHeartbeatMs: HEARTBEAT_MS });
    const ownUrl = await listen(own);
    const user = await registerUser(own.app);
    const stream = await openStream(ownUrl, user.token);
    await stream.next(isReady);
    const started = Date.now();
    await own.close();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

/** Ended within this long counts as "at once" (the heartbeat below is a minute away). */
const AT_ONCE_MS = 1_500;

const endsWithin = (stream: Stream, ms = AT_ONCE_MS) =>
  Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

describe('GET /api/events ends at once when its access ends (decision 075)', () => {
  let ctx: TestContext;
  let url: string;

  beforeAll(async () => {
    // A heartbeat far away: only the announcement of the ended access can end the stream.
    ctx = await createTestApp({ liveHeartbeatMs: 60_000 });
    url = await listen(ctx);
  });
  afterAll(() => ctx.close());

  /** A user with a second session, and a stream held by that second session. */
  async function streamOfSecondSession() {
    const user = await registerUser(ctx.app);
    const login = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: user.password },
    });
    const second = {
      ...user,
      token: login.json<{ accessToken: string }>().accessToken,
      refreshCookie: refreshCookieOf(login),
    };
    const stream = await openStream(url, second.token);
    await stream.next(isReady);
    return { user, second, stream };
  }

  it('on logout', async () => {
    const { second, stream } = await streamOfSecondSession();
    const logout = await apiClient(ctx.app, null)(authApi.logout, {
      headers: { cookie: second.refreshCookie },
    });
    expect(logout.statusCode).toBe(204);
    expect(await endsWithin(stream)).toBe(true);
  });

  it('on "end all other sessions" and on a password change, but not for the session that asked', async () => {
    const { user, stream } = await streamOfSecondSession();
    const own = await openStream(url, user.token);
    await own.next(isReady);
    const ended = await apiClient(ctx.app, user)(accountApi.endOtherSessions);
    expect(ended.statusCode).toBe(204);
    expect(await endsWithin(stream)).toBe(true);

    const next = await streamOfSecondSession();
    const changed = await apiClient(ctx.app, next.user)(accountApi.changePassword, {
      body: { currentPassword: next.user.password, newPassword: 'another long password' },
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    expect(await endsWithin(next.stream)).toBe(true);
    // The session that asked still hears its changes.
    await apiClient(ctx.app, user)(todosApi.create, { body: { title: 'still mine' } });
    expect(dataOf(await own.next(event('todo.created')))).toMatchObject({ type: 'todo.created' });
    own.close();
  });

  it('when the API token it was opened with is revoked', async () => {
    const user = await registerUser(ctx.app);
    const made = await apiClient(ctx.app, user)(tokensApi.create, {
      body: { name: 'Watcher', scope: 'read', expiresInDays: null },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id, token } = made.json<{ id: number; token: string }>();
    const stream = await openStream(url, token);
    await stream.next(isReady);
    const revoked = await apiClient(ctx.app, user)(tokensApi.revoke, { params: { id } });
    expect(revoked.statusCode).toBe(204);
    expect(await endsWithin(stream)).toBe(true);
  });

  it('when the account is deleted', async () => {
    const user = await registerUser(ctx.app);
    const stream = await openStream(url, user.token);
    await stream.next(isReady);
    const deleted = await apiClient(ctx.app, user)(accountApi.remove, {
      body: { password: user.password },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await endsWithin(stream)).toBe(true);
  });
});

/** Two app instances (two processes' worth of state) on one PostgreSQL database. */
describe
  .skipIf(!pgUrl)
  .each([
    { transport: 'PostgreSQL LISTEN/NOTIFY', redis: null },
    ...(redisUrl ? [{ transport: 'Redis pub/sub', redis: redisUrl }] : []),
  ])('across processes through $transport', ({ redis }) => {
  let database: TestDatabase;
  let a: TestContext;
  let b: TestContext;
  let aUrl: string;
  let bUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = { redisUrl: redis };
    a = await createTestApp({ database, config, liveHeartbeatMs: HEARTBEAT_MS });
    b = await createTestApp({ database, config, liveHeartbeatMs: HEARTBEAT_MS });
    a.clock.current = b.clock.current = Date.now();
    [aUrl, bUrl] = await Promise.all([listen(a), listen(b)]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('brings a change made on one to a stream held by the other', async () => {
    const user = await registerUser(a.app);
    const onB = await openStream(bUrl, user.token);
    const onA = await openStream(aUrl, user.token);
    await Promise.all([onA.next(isReady), onB.next(isReady)]);
    const created = await apiClient(a.app, user)(todosApi.create, { body: { title: 'on A' } });
    expect(created.statusCode).toBe(201);
    const todo = created.json<{ id: number }>();
    expect(dataOf(await onB.next(event('todo.created', todo.id)))).toEqual({
      type: 'todo.created',
      id: todo.id,
    });
    expect(dataOf(await onA.next(event('todo.created', todo.id)))).toEqual({
      type: 'todo.created',
      id: todo.id,
    });
    const deleted = await apiClient(b.app, user)(todosApi.remove, { params: { id: todo.id } });
    expect(deleted.statusCode).toBe(204);
    expect(dataOf(await onA.next(event('todo.deleted', todo.id)))).toEqual({
      type: 'todo.deleted',
      id: todo.id,
    });
    onA.close();
    onB.close();
  });

  it('ends a stream held by the other at once when its session ends on one', async () => {
    const slow = await createTestApp({
      database,
      config: { redisUrl: redis },
      liveHeartbeatMs: 60_000,
    });
    try {
      const slowUrl = await listen(slow);
      const user = await registerUser(a.app);
      const stream = await openStream(slowUrl, user.token);
      await stream.next(isReady);
      const logout = await apiClient(a.app, null)(authApi.logout, {
        headers: { cookie: user.refreshCookie },
      });
      expect(logout.statusCode).toBe(204);
      expect(await endsWithin(stream)).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it('keeps one listening connection per process however many streams come and go', async () => {
    const user = await registerUser(a.app);
    for (let i = 0; i < 50; i++) {
      const stream = await openStream(bUrl, user.token);
      await stream.next(isReady);
      stream.close();
      await stream.ended;
    }
    await waitUntil(() => b.app.live.stats().subscribers === 0);
    expect(b.app.live.stats()).toEqual({ users: 0, subscribers: 0, connections: 1 });
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
      database.handle.db,
    );
    const schema = rows[0]?.schema ?? '';
    if (redis) {
      const client = new Redis(redis);
      const [, subscriptions] = (await client.pubsub('NUMSUB', `tally:events:${schema}`)) as [
        string,
        number,
      ];
      await client.quit();
      // One subscriber connection per app instance.
      expect(subscriptions).toBe(2);
    } else {
      const listeners = await sql<{ count: number }>`
        select count(*)::int as count from pg_stat_activity
        where query = ${`LISTEN "tally_events:${schema}"`}`.execute(database.handle.db);
      expect(listeners.rows[0]?.count).toBe(2);
    }
  });
});
