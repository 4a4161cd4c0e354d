import { createHash } from 'node:crypto';
import {
  accountApi,
  groupsApi,
  authApi,
  calendarApi,
  statisticsApi,
  todosApi,
  TOKEN_REQUESTS_PER_MINUTE,
  TOKENS_PER_ACCOUNT_MAX,
  tokensApi,
} from '@tally/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  as,
  createTestApp,
  registerUser,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';
import { snapshotUser } from '../test/security.js';

/**
 * Personal API tokens (docs/product.md, API tokens): made, listed and revoked in Settings with a
 * session; used as a bearer token on the rest of /api.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

interface Created {
  id: number;
  name: string;
  scope: string;
  token: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

async function makeToken(
  user: TestUser,
  body: { name?: string; scope?: string; expiresInDays?: number | null } = {},
): Promise<Created> {
  const response = await apiClient(ctx.app, user).unchecked(tokensApi.create, {
    body: { name: 'Script', scope: 'read-write', expiresInDays: null, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Created>();
}

/** inject() with a personal token as the bearer. */
const withToken = (token: string) => apiClient(ctx.app, { token });

const listOf = async (user: TestUser) =>
  (await apiClient(ctx.app, user)(tokensApi.list)).json<Created[]>();

describe('making, listing and revoking tokens', () => {
  it('shows the token once, then lists it without it', async () => {
    const user = await registerUser(ctx.app);
    const created = await makeToken(user, { name: '  Backup script ', scope: 'read' });
    expect(created.token).toMatch(/^tally_pat_[A-Za-z0-9_-]{43}$/);
    expect(created).toEqual({
      id: expect.any(Number) as number,
      name: 'Backup script',
      scope: 'read',
      token: created.token,
      createdAt: new Date(ctx.clock.now()).toISOString(),
      lastUsedAt: null,
      expiresAt: null,
    });
    const listed = { ...created, token: undefined };
    delete listed.token;
    expect(await listOf(user)).toEqual([listed]);
    expect(JSON.stringify(await listOf(user))).not.toContain(created.token);
  });

  it('lists newest first with expiry dates, and only the caller’s', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    await makeToken(other, { name: 'Not yours' });
    const first = await makeToken(user, { name: 'First', expiresInDays: 30 });
    ctx.clock.advance(1000);
    const second = await makeToken(user, { name: 'Second', expiresInDays: 365 });
    const third = await makeToken(user, { name: 'Third', expiresInDays: 90 });
    const list = await listOf(user);
    expect(list.map((t) => t.name)).toEqual(['Third', 'Second', 'First']);
    expect(Date.parse(first.expiresAt ?? '') - Date.parse(first.createdAt)).toBe(30 * DAY);
    expect(Date.parse(second.expiresAt ?? '') - Date.parse(second.createdAt)).toBe(365 * DAY);
    expect(Date.parse(third.expiresAt ?? '') - Date.parse(third.createdAt)).toBe(90 * DAY);
  });

  it('refuses a bad name, scope or expiry', async () => {
    const user = await registerUser(ctx.app);
    for (const payload of [
      { name: '   ', scope: 'read', expiresInDays: null },
      { name: 'x'.repeat(101), scope: 'read', expiresInDays: null },
      { name: 'ok', scope: 'admin', expiresInDays: null },
      { name: 'ok', scope: 'read', expiresInDays: 7 },
      { name: 'ok', scope: 'read' },
    ]) {
      const response = await apiClient(ctx.app, user).unchecked(tokensApi.create, {
        body: payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      // The sentence, and the field it names (decision 178).
      expect(response.json()).toMatchObject({
        error: expect.any(String) as string,
        field: expect.any(String) as string,
      });
    }
  });

  it(`allows ${TOKENS_PER_ACCOUNT_MAX} tokens per account`, async () => {
    const user = await registerUser(ctx.app);
    for (let i = 0; i < TOKENS_PER_ACCOUNT_MAX; i += 1) await makeToken(user, { name: `t${i}` });
    const response = await apiClient(ctx.app, user)(tokensApi.create, {
      body: { name: 'one more', scope: 'read', expiresInDays: null },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json<{ error: string }>().error).toContain('revoke one first');
  });

  it('revokes a token: it stops working at once; another user’s is a 404', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const created = await makeToken(user);
    expect((await withToken(created.token)(todosApi.list)).statusCode).toBe(200);

    const notYours = await apiClient(ctx.app, other)(tokensApi.revoke, {
      params: { id: created.id },
    });
    expect(notYours.statusCode).toBe(404);
    expect(notYours.json()).toEqual({ error: 'Token not found', code: 'not_found' });

    const revoked = await apiClient(ctx.app, user)(tokensApi.revoke, {
      params: { id: created.id },
    });
    expect(revoked.statusCode).toBe(204);
    expect(await listOf(user)).toEqual([]);
    const after = await withToken(created.token)(todosApi.list);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      error: 'This API token is not valid: it was revoked or never existed',
    });
    const again = await apiClient(ctx.app, user)(tokensApi.revoke, { params: { id: created.id } });
    expect(again.statusCode).toBe(404);
  });
});

describe('calling the API with a token', () => {
  it('reads and writes the account’s own data with a read-write token', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    await apiClient(ctx.app, other)(todosApi.create, { body: { title: 'Other' } });
    const { token } = await makeToken(user);
    const call = withToken(token);

    const created = await call(todosApi.create, { body: { title: 'By API' } });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: number }>();
    const list = await call(todosApi.list);
    expect(list.json<{ title: string }[]>().map((t) => t.title)).toEqual(['By API']);
    const updated = await call(todosApi.update, {
      params: { id },
      body: { title: 'By API', completed: true },
    });
    expect(updated.statusCode).toBe(200);
    expect((await call(statisticsApi.total)).statusCode).toBe(200);
    expect((await call(todosApi.remove, { params: { id } })).statusCode).toBe(204);
    // The session sees what the token did.
    const seen = await apiClient(ctx.app, user)(todosApi.list);
    expect(seen.json()).toEqual([]);
  });

  it('lets a read token GET but not change anything (403)', async () => {
    const user = await registerUser(ctx.app);
    await apiClient(ctx.app, user)(todosApi.create, { body: { title: 'Mine' } });
    const { token } = await makeToken(user, { scope: 'read' });
    const call = withToken(token);
    expect((await call.unchecked(todosApi.list)).statusCode).toBe(200);
    expect(
      (await as(ctx.app, { token })({ method: 'HEAD', url: todosApi.list.path })).statusCode,
    ).toBe(200);
    const before = await snapshotUser(ctx.database.handle.db, user.id);
    for (const request of [
      [todosApi.create, { body: { title: 'Nope' } }],
      [groupsApi.create, { body: { name: 'Nope', color: '#3B82F6' } }],
      [todosApi.update, { params: { id: 1 }, body: { title: 'Nope', completed: true } }],
      [todosApi.remove, { params: { id: 1 } }],
    ] as const) {
      const response = await call.unchecked(request[0], request[1]);
      expect(response.statusCode, `${request[0].method} ${request[0].path}`).toBe(403);
      expect(response.json()).toEqual({
        error: 'This API token is read-only: it cannot make changes',
      });
    }
    // last_used_at moved only on the GETs (and at most once a minute): nothing else changed.
    const after = JSON.parse(await snapshotUser(ctx.database.handle.db, user.id)) as Record<
      string,
      unknown
    >;
    const beforeRows = JSON.parse(before) as Record<string, unknown>;
    expect({ ...after, api_tokens: null }).toEqual({ ...beforeRows, api_tokens: null });
  });

  it('refuses an expired token with the day it expired', async () => {
    const user = await registerUser(ctx.app);
    const { token, expiresAt } = await makeToken(user, { expiresInDays: 30 });
    ctx.clock.advance(30 * DAY - 1);
    expect((await withToken(token)(todosApi.list)).statusCode).toBe(200);
    ctx.clock.advance(1);
    const response = await withToken(token)(todosApi.list);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: `This API token expired on ${(expiresAt ?? '').slice(0, 10)}: make a new one in Settings`,
    });
    // Still listed (so it can be seen and revoked), to a new session: the old one's token ended.
    const login = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: user.username, password: user.password },
    });
    const fresh = { ...user, token: login.json<{ accessToken: string }>().accessToken };
    expect((await listOf(fresh)).map((t) => t.expiresAt)).toEqual([expiresAt]);
  });

  it('refuses an unknown token and a deleted account’s token', async () => {
    const unknown = await withToken(`tally_pat_${'A'.repeat(43)}`)(todosApi.list);
    expect(unknown.statusCode).toBe(401);
    const user = await registerUser(ctx.app);
    const { token } = await makeToken(user);
    await apiClient(ctx.app, null)(accountApi.remove, {
      body: { password: user.password },
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect((await withToken(token).unchecked(todosApi.list)).statusCode).toBe(401);
  });

  it('is refused on /api/account and /api/auth: those need a session', async () => {
    const user = await registerUser(ctx.app);
    const { token, id } = await makeToken(user);
    const call = withToken(token);
    const expected = {
      error:
        'Personal API tokens cannot be used on /api/account or /api/auth: sign in to Tally to manage your account',
    };
    for (const request of [
      [accountApi.get, {}],
      [accountApi.sessions, {}],
      [accountApi.export, {}],
      [tokensApi.list, {}],
      [tokensApi.create, { body: { name: 'x', scope: 'read' } }],
      [tokensApi.revoke, { params: { id: id } }],
      [calendarApi.get, {}],
      [calendarApi.regenerate, {}],
      [accountApi.remove, { body: { password: user.password } }],
      [accountApi.changePassword, { body: {} }],
      [authApi.logout, {}],
      [authApi.refresh, {}],
      [authApi.login, { body: { username: user.username, password: user.password } }],
    ] as const) {
      const response = await call.unchecked(request[0], request[1]);
      expect(response.statusCode, `${request[0].method} ${request[0].path}`).toBe(403);
      expect(response.json()).toEqual(expected);
    }
    // Nothing happened: the token and the account are still there.
    expect((await listOf(user)).map((t) => t.id)).toEqual([id]);
    expect((await apiClient(ctx.app, user)(accountApi.get)).statusCode).toBe(200);
  });

  it(`allows ${TOKEN_REQUESTS_PER_MINUTE} requests a minute per token, then 429 with Retry-After`, async () => {
    const user = await registerUser(ctx.app);
    const { token } = await makeToken(user, { scope: 'read' });
    const { token: another } = await makeToken(user, { scope: 'read' });
    const call = withToken(token);
    for (let i = 0; i < TOKEN_REQUESTS_PER_MINUTE; i += 1) {
      const response = await call(todosApi.list);
      if (response.statusCode !== 200) throw new Error(`request ${i}: ${response.statusCode}`);
    }
    const limited = await call(todosApi.list);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json<{ error: string }>().error).toMatch(
      /^Too many requests with this API token - try again in \d+ seconds?$/,
    );
    // Per token: another token and the session are not limited.
    expect((await withToken(another)(todosApi.list)).statusCode).toBe(200);
    expect((await apiClient(ctx.app, user)(todosApi.list)).statusCode).toBe(200);
    ctx.clock.advance(MINUTE);
    expect((await call(todosApi.list)).statusCode).toBe(200);
  });

  it('notes the last use at most once a minute', async () => {
    const user = await registerUser(ctx.app);
    const { token, id } = await makeToken(user, { scope: 'read' });
    const lastUse = async () => (await listOf(user)).find((t) => t.id === id)?.lastUsedAt;
    expect(await lastUse()).toBeNull();
    const start = ctx.clock.now();
    await withToken(token)(todosApi.list);
    expect(await lastUse()).toBe(new Date(start).toISOString());
    ctx.clock.advance(MINUTE - 1);
    await withToken(token)(todosApi.list);
    expect(await lastUse()).toBe(new Date(start).toISOString());
    ctx.clock.advance(1);
    await withToken(token)(todosApi.list);
    expect(await lastUse()).toBe(new Date(start + MINUTE).toISOString());
  });
});

describe('storage', () => {
  it('keeps only a SHA-256 of the token: the token is in no table', async () => {
    const user = await registerUser(ctx.app);
    const { token, id } = await makeToken(user);
    await withToken(token)(todosApi.list);
    const db = ctx.database.handle.db;
    const row = await db
      .selectFrom('api_tokens')
      .select('token_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const secretPart = token.slice('tally_pat_'.length);
    for (const table of Object.keys(
      JSON.parse(await snapshotUser(db, user.id)) as Record<string, unknown>,
    ).concat('users')) {
      const { rows } = await sql<
        Record<string, unknown>
      >`select * from ${sql.table(table)}`.execute(db);
      expect(JSON.stringify(rows), table).not.toContain(secretPart);
    }
  });

  it('deletes the account’s tokens and calendar feed with the account', async () => {
    const user = await registerUser(ctx.app);
    await makeToken(user);
    await apiClient(ctx.app, user)(calendarApi.regenerate);
    const db = ctx.database.handle.db;
    const count = async (table: 'api_tokens' | 'calendar_feeds') =>
      (await db.selectFrom(table).select('user_id').where('user_id', '=', user.id).execute())
        .length;
    expect([await count('api_tokens'), await count('calendar_feeds')]).toEqual([1, 1]);
    const deleted = await apiClient(ctx.app, user)(accountApi.remove, {
      body: { password: user.password },
    });
    expect(deleted.statusCode).toBe(204);
    expect([await count('api_tokens'), await count('calendar_feeds')]).toEqual([0, 0]);
  });
});

describe('/api/docs', () => {
  it('names the personal token as a second bearer scheme, and not for /api/account', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      components: { securitySchemes: Record<string, { description?: string }> };
      security: unknown[];
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    expect(Object.keys(document.components.securitySchemes)).toEqual([
      'bearerAuth',
      'personalToken',
    ]);
    expect(document.components.securitySchemes.personalToken?.description).toContain('tally_pat_');
    expect(document.security).toEqual([{ bearerAuth: [] }, { personalToken: [] }]);
    expect(document.paths['/api/account/tokens']?.post?.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/todos']?.get?.security).toBeUndefined();
  });
});
