import { randomUUID } from 'node:crypto';
import { accountApi, authApi, calendarApi, type Todo, todosApi, tokensApi } from '@tally/contract';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  registerUser,
  signInAgain,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

let ctx: TestContext;
/** Every route of the app as added, with the hooks the plugins gave it (the same objects). */
const routes: RouteOptions[] = [];
/** A second app on the same database, with its own connections: another process. */
let other: TestContext;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  ctx = await createTestApp({ onRoute: (route) => void routes.push(route) });
  const second = ctx.database.reconnect();
  other = await createTestApp({
    database: { ...ctx.database, handle: second, drop: () => second.db.destroy() },
    clock: ctx.clock,
  });
  alice = await registerUser(ctx.app);
  bob = await registerUser(ctx.app);
});
afterAll(async () => {
  await other.close();
  await other.database.drop();
  await ctx.close();
});

const HOUR = 60 * 60 * 1000;

const post = (user: TestUser, key: string | null, payload: object, app = ctx.app) =>
  apiClient(app, user).unchecked(todosApi.create, {
    body: payload,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
const titles = async (user: TestUser) =>
  (await apiClient(ctx.app, user)(todosApi.list)).json<Todo[]>().map((todo) => todo.title);

describe('Idempotency-Key', () => {
  it('answers a retried create with the first answer and creates one todo', async () => {
    const key = randomUUID();
    const first = await post(alice, key, { title: 'once', description: '', groupId: null });
    const again = await post(alice, key, { title: 'once', description: '', groupId: null });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect((await titles(alice)).filter((title) => title === 'once')).toHaveLength(1);
  });

  it('refuses the same key with another request (422) and writes nothing', async () => {
    const key = randomUUID();
    await post(alice, key, { title: 'first body', description: '', groupId: null });
    const reused = await post(alice, key, { title: 'second body', description: '', groupId: null });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({
      error: 'This Idempotency-Key was already used for another request',
    });
    expect(await titles(alice)).not.toContain('second body');
  });

  it('keeps each user’s keys apart', async () => {
    const key = randomUUID();
    expect((await post(alice, key, { title: 'shared key' })).statusCode).toBe(201);
    expect((await post(bob, key, { title: 'shared key' })).statusCode).toBe(201);
    expect(await titles(bob)).toEqual(['shared key']);
  });

  it('replays edits and deletes: a retried delete still answers 204', async () => {
    const created = (await post(alice, null, { title: 'to edit' })).json<Todo>();
    const put = (key: string) =>
      apiClient(ctx.app, alice)(todosApi.patch, {
        params: { id: created.id },
        body: { completed: true },
        headers: { 'idempotency-key': key },
      });
    const editKey = randomUUID();
    expect((await put(editKey)).statusCode).toBe(200);
    expect((await put(editKey)).headers['idempotent-replayed']).toBe('true');

    const remove = (key: string) =>
      apiClient(ctx.app, alice)(todosApi.remove, {
        params: { id: created.id },
        headers: { 'idempotency-key': key },
      });
    const deleteKey = randomUUID();
    expect((await remove(deleteKey)).statusCode).toBe(204);
    const retried = await remove(deleteKey);
    expect(retried.statusCode).toBe(204);
    expect(retried.body).toBe('');
    // A new key is a new request: the todo is gone by now.
    expect((await remove(randomUUID())).statusCode).toBe(404);
  });

  it('answers a replay with the first answer’s ETag, the If-Match of the next write', async () => {
    const created = (await post(alice, null, { title: 'etag replay' })).json<Todo>();
    const patch = (key: string, ifMatch: string) =>
      apiClient(ctx.app, alice).unchecked(todosApi.patch, {
        params: { id: created.id },
        body: { description: 'once' },
        headers: { 'idempotency-key': key, 'if-match': ifMatch },
      });
    const key = randomUUID();
    const first = await patch(key, `"${created.version}"`);
    const again = await patch(key, `"${created.version}"`);
    expect(first.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers.etag).toBe(`"${created.version + 1}"`);
    expect(again.headers.etag).toBe(first.headers.etag);
    // A refusal's answer names the version it is now the same way, replayed or not.
    const staleKey = randomUUID();
    const stale = await patch(staleKey, `"${created.version}"`);
    const staleAgain = await patch(staleKey, `"${created.version}"`);
    expect(stale.statusCode).toBe(412);
    expect(staleAgain.statusCode).toBe(412);
    expect(staleAgain.headers.etag).toBe(stale.headers.etag);
    expect(staleAgain.headers.etag).toBe(`"${created.version + 1}"`);
  });

  it('leaves requests without a key alone and refuses a malformed key (400)', async () => {
    await post(alice, null, { title: 'no key' });
    await post(alice, null, { title: 'no key' });
    expect((await titles(alice)).filter((title) => title === 'no key')).toHaveLength(2);
    const bad = await post(alice, 'x'.repeat(256), { title: 'bad key' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/Idempotency-Key/);
    expect(await titles(alice)).not.toContain('bad key');
  });

  it('does not keep answers to sign-in calls', async () => {
    const login = () =>
      apiClient(ctx.app, null)(authApi.login, {
        body: { username: alice.username, password: alice.password },
        headers: { 'idempotency-key': 'login-key' },
      });
    const [first, second] = [await login(), await login()];
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json<{ accessToken: string }>().accessToken).not.toBe(
      first.json<{ accessToken: string }>().accessToken,
    );
  });

  it('says 409 with Retry-After while the first request runs; a claim left for a minute is taken over', async () => {
    const key = randomUUID();
    await ctx.database.handle.db
      .insertInto('idempotency_keys')
      .values({
        user_id: alice.id,
        key,
        method: 'POST',
        path: '/api/todos',
        request_hash: 'unused',
        status: null,
        response_body: null,
        created_at: ctx.clock.current,
      })
      .execute();
    const running = await post(alice, key, { title: 'in flight' });
    expect(running.statusCode).toBe(409);
    expect(running.headers['retry-after']).toBe('1');
    ctx.clock.advance(61_000);
    alice = await signInAgain(ctx.app, alice);
    expect((await post(alice, key, { title: 'in flight' })).statusCode).toBe(201);
  });

  it('keeps a key 24 hours, then runs the request again and sweeps the old rows', async () => {
    const key = randomUUID();
    await post(alice, key, { title: 'daily' });
    ctx.clock.advance(23 * HOUR);
    alice = await signInAgain(ctx.app, alice);
    expect((await post(alice, key, { title: 'daily' })).headers['idempotent-replayed']).toBe(
      'true',
    );
    ctx.clock.advance(HOUR);
    alice = await signInAgain(ctx.app, alice);
    const later = await post(alice, key, { title: 'daily' });
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect((await titles(alice)).filter((title) => title === 'daily')).toHaveLength(2);
    ctx.clock.advance(25 * HOUR);
    alice = await signInAgain(ctx.app, alice);
    await post(alice, randomUUID(), { title: 'sweeper' });
    const left = await ctx.database.handle.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('created_at', '<', ctx.clock.current - 24 * HOUR)
      .execute();
    expect(left).toEqual([]);
  });

  it('runs a request once when two processes get it at the same moment', async () => {
    const key = randomUUID();
    const payload = { title: 'raced' };
    const answers = await Promise.all([
      post(alice, key, payload, ctx.app),
      post(alice, key, payload, other.app),
      post(alice, key, payload, ctx.app),
      post(alice, key, payload, other.app),
    ]);
    const statuses = answers.map((answer) => answer.statusCode);
    // Each is the first answer, its replay, or "still running" (409), never a second todo.
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(statuses).toContain(201);
    const retry = await post(alice, key, payload, other.app);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await titles(alice)).filter((title) => title === 'raced')).toHaveLength(1);
  });
});

describe('calls that carry a credential (decision 076)', () => {
  it('never hands out a revoked API token again: a retried create makes a new token', async () => {
    const key = randomUUID();
    const create = () =>
      apiClient(ctx.app, alice)(tokensApi.create, {
        body: { name: 'Retried', scope: 'read', expiresInDays: null },
        headers: { 'idempotency-key': key },
      });
    const first = await create();
    expect(first.statusCode, first.body).toBe(201);
    const made = first.json<{ id: number; token: string }>();
    const revoked = await apiClient(ctx.app, alice)(tokensApi.revoke, { params: { id: made.id } });
    expect(revoked.statusCode).toBe(204);

    const retry = await create();
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json<{ token: string }>().token).not.toBe(made.token);
    const stored = await ctx.database.handle.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .execute();
    expect(JSON.stringify(stored)).not.toContain(made.token);
  });

  it('stores nothing of a password change or of the calendar feed secret', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    const headers = () => ({ 'idempotency-key': randomUUID() });
    const changed = await call(accountApi.changePassword, {
      body: { currentPassword: user.password, newPassword: 'a brand new password' },
      headers: headers(),
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    const feed = await call(calendarApi.regenerate, { headers: headers() });
    expect(feed.statusCode).toBe(201);
    const stored = await ctx.database.handle.db
      .selectFrom('idempotency_keys')
      .select(['path', 'response_body'])
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toEqual([]);
  });
});

describe('which routes honour the key', () => {
  const hookNames = (hooks: unknown) =>
    (Array.isArray(hooks) ? hooks : hooks ? [hooks] : []).map(
      (hook: { name: string }) => hook.name,
    );

  // Their body or answer holds a credential (plugins/idempotency.ts, SECRET_ROUTES).
  const secret = new Set([
    'POST /api/account/tokens',
    'POST /api/account/calendar',
    'PUT /api/account/password',
    'PUT /api/account/email',
    'DELETE /api/account',
    'POST /api/account/google',
    'POST /api/account/reauthenticate',
    'POST /api/push/subscriptions',
    // An OIDC flow's state is in the cookie its answer sets (decision 080).
    'POST /api/account/oidc',
    'POST /api/account/reauthenticate/oidc',
  ]);

  it('every signed-in write under /api/, whichever feature added it; no read, no auth call and no call carrying a credential', () => {
    // The hooks sit on the routes themselves (decision 065): a write route added before the
    // plugin, or under another path, would silently take no key.
    const writes = routes.filter((route) =>
      ['POST', 'PUT', 'PATCH', 'DELETE'].includes(String(route.method)),
    );
    expect(writes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const guarded =
        writes.includes(route) &&
        route.url.startsWith('/api/') &&
        !route.url.startsWith('/api/auth/') &&
        !secret.has(`${String(route.method)} ${route.url}`);
      const expected = guarded ? ['claim'] : [];
      expect([
        route.method,
        route.url,
        hookNames(route.preHandler).filter((n) => n === 'claim'),
      ]).toEqual([route.method, route.url, expected]);
      expect(hookNames(route.onSend).includes('store')).toBe(guarded);
      expect(hookNames(route.onResponse).includes('release')).toBe(guarded);
    }
  });
});
