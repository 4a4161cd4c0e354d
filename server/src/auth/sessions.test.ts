import { accountApi, authApi, todosApi, type Endpoint } from '@tally/contract';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../db/migrate.js';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  createTestDatabase,
  refreshCookieOf,
  registerUser,
  TEST_SECRET,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

/**
 * A session is one refresh-token family with an absolute end; its access tokens carry its id
 * (`sid`) and stop working the moment it ends, not 15 minutes later.
 */

const DAY = 24 * 60 * 60 * 1000;
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ config: { sessionMaxDays: 30 } });
});
afterAll(async () => ctx.close());

const post = (endpoint: Endpoint, headers: Record<string, string> = {}) =>
  apiClient(ctx.app, null).unchecked(endpoint, { headers });
const listTodos = (user: Pick<TestUser, 'token'>) => apiClient(ctx.app, user)(todosApi.list);
const login = async (user: TestUser) => {
  const response = await apiClient(ctx.app, null)(authApi.login, {
    body: { username: user.username, password: user.password },
  });
  return { token: response.json<{ accessToken: string }>().accessToken, response };
};

describe('access tokens end with their session', () => {
  it('fail at once after logout, while the other sessions go on', async () => {
    const user = await registerUser(ctx.app);
    const other = await login(user);
    expect((await listTodos(user)).statusCode).toBe(200);
    expect((await post(authApi.logout, { cookie: user.refreshCookie })).statusCode).toBe(204);
    const refused = await listTodos(user);
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ error: string }>().error).toBe('Invalid or expired token');
    expect((await listTodos({ token: other.token })).statusCode).toBe(200);
  });

  it('fail at once when a replayed refresh token ends the session', async () => {
    const user = await registerUser(ctx.app);
    const renewed = await post(authApi.refresh, { cookie: user.refreshCookie });
    const token = renewed.json<{ accessToken: string }>().accessToken;
    expect((await listTodos({ token })).statusCode).toBe(200);
    // The first cookie again: someone has a copy. The session ends for both holders.
    expect((await post(authApi.refresh, { cookie: user.refreshCookie })).statusCode).toBe(401);
    expect((await listTodos({ token })).statusCode).toBe(401);
    expect((await listTodos(user)).statusCode).toBe(401);
    const next = await post(authApi.refresh, { cookie: refreshCookieOf(renewed) });
    expect(next.statusCode).toBe(401);
  });

  it('refuses a token without a session id (issued before sessions existed)', async () => {
    const user = await registerUser(ctx.app);
    const now = Math.floor(ctx.clock.now() / 1000);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ roles: ['user'], uid: user.id, ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.username)
        .setIssuer('tally')
        .setAudience('tally-web')
        .setIssuedAt(now)
        .setExpirationTime(now + 900)
        .sign(new TextEncoder().encode(TEST_SECRET));
    expect((await listTodos({ token: await sign({}) })).statusCode).toBe(401);
    // Another session's id in an otherwise valid token is refused too.
    const forged = await sign({ sid: randomUUID() });
    expect((await listTodos({ token: forged })).statusCode).toBe(401);
  });

  it('fail once the account is gone, even deleted straight from the database', async () => {
    // The hook reads the session alone (decision 065): the foreign key's cascade must take the
    // sessions with the account, on both databases, whoever deletes it.
    const user = await registerUser(ctx.app);
    expect((await listTodos(user)).statusCode).toBe(200);
    const { db } = ctx.database.handle;
    await db.transaction().execute(async (trx) => {
      for (const table of ['refresh_tokens', 'todos', 'todo_groups'] as const) {
        await trx.deleteFrom(table).where('user_id', '=', user.id).execute();
      }
      await trx.deleteFrom('users').where('id', '=', user.id).execute();
    });
    const left = await db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([]);
    expect((await listTodos(user)).statusCode).toBe(401);
    // A new account with the same name gets sessions of its own: the old token stays refused.
    await registerUser(ctx.app, user.username);
    expect((await listTodos(user)).statusCode).toBe(401);
  });
});

describe('a session’s absolute lifetime', () => {
  it('ends 30 days after sign-in however often it is renewed', async () => {
    const user = await registerUser(ctx.app);
    let cookie = user.refreshCookie;
    for (let day = 10; day < 30; day += 10) {
      ctx.clock.advance(10 * DAY);
      const renewed = await post(authApi.refresh, { cookie });
      expect(renewed.statusCode, `day ${day}`).toBe(200);
      // The cookie lives only as long as the session has left.
      const maxAge = renewed.cookies.find((c) => c.name === 'tally_refresh')?.maxAge ?? 0;
      expect(maxAge).toBeLessThanOrEqual((30 - day) * 86_400);
      expect(maxAge).toBeGreaterThan((30 - day) * 86_400 - 60);
      cookie = refreshCookieOf(renewed);
    }
    const lastToken = (await post(authApi.refresh, { cookie })).json<{ accessToken: string }>()
      .accessToken;
    ctx.clock.advance(10 * DAY + 1);
    expect((await listTodos({ token: lastToken })).statusCode).toBe(401);
  });

  it('follows SESSION_MAX_DAYS', async () => {
    const short = await createTestApp({ config: { sessionMaxDays: 1 } });
    try {
      const user = await registerUser(short.app);
      short.clock.advance(DAY - 60_000);
      const renewed = await apiClient(short.app, null)(authApi.refresh, {
        headers: { cookie: user.refreshCookie },
      });
      expect(renewed.statusCode).toBe(200);
      short.clock.advance(60_000);
      const late = await apiClient(short.app, null)(authApi.refresh, {
        headers: { cookie: refreshCookieOf(renewed) },
      });
      expect(late.statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('a session’s inactivity timeout (SESSION_IDLE_DAYS, 14 by default)', () => {
  it('ends a session not renewed for 14 days: its refresh cookie stops working and it is no longer listed', async () => {
    const user = await registerUser(ctx.app);
    // Another device that never comes back: no longer listed once idle, before any refresh.
    await login(user);
    ctx.clock.advance(13 * DAY);
    const renewed = await post(authApi.refresh, { cookie: user.refreshCookie });
    expect(renewed.statusCode).toBe(200);
    ctx.clock.advance(14 * DAY);
    const idle = await post(authApi.refresh, { cookie: refreshCookieOf(renewed) });
    expect(idle.statusCode).toBe(401);
    expect(idle.json()).toEqual({ error: 'Your session has expired - please log in again' });
    // It is ended, not only refused: the account's sessions list only the new sign-in.
    const fresh = await login(user);
    const sessions = await apiClient(ctx.app, fresh)(accountApi.sessions);
    expect(sessions.json<{ current: boolean }[]>()).toEqual([
      expect.objectContaining({ current: true }),
    ]);
  });

  it('follows SESSION_IDLE_DAYS', async () => {
    const short = await createTestApp({ config: { sessionIdleDays: 2 } });
    try {
      const user = await registerUser(short.app);
      short.clock.advance(2 * DAY);
      const refused = await apiClient(short.app, null)(authApi.refresh, {
        headers: { cookie: user.refreshCookie },
      });
      expect(refused.statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('migration 0003', () => {
  it('turns every refresh-token family into a session, ended where it was revoked', async () => {
    const database = await createTestDatabase({ ownDatabase: true });
    try {
      const { db, dialect } = database.handle;
      const pgSchema =
        dialect === 'postgres'
          ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
              ?.schema
          : undefined;
      const migrator = new Migrator({
        db,
        provider: {
          getMigrations: async () => migrations(dialect),
        },
        ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
      });
      expect((await migrator.migrateTo('0002-statistics-rollups')).error).toBeUndefined();
      const created = Date.parse('2026-03-01T00:00:00Z');
      const { id } = await db
        .insertInto('users')
        .values({
          username: 'legacy',
          username_lower: 'legacy',
          email: 'legacy@example.com',
          email_lower: 'legacy@example.com',
          password_hash: null,
          google_subject: 'google-legacy',
          created_at: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const token = (family: string, n: number, revoked: number | null) => ({
        user_id: id,
        family_id: family,
        token_hash: `${family}-${n}`,
        created_at: created + n * DAY,
        expires_at: created + (n + 30) * DAY,
        used_at: null,
        revoked_at: revoked,
      });
      await db
        .insertInto('refresh_tokens')
        .values([
          token('live', 0, null),
          token('live', 2, null),
          token('gone', 1, created + 3 * DAY),
          token('gone', 2, created + 3 * DAY),
        ])
        .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await db
        .selectFrom('sessions')
        .select(['id', 'created_at', 'last_used_at', 'expires_at', 'ended_at'])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => Object.values(r).map((v) => (v === null ? null : String(v))))).toEqual(
        [
          ['gone', created + DAY, created + 2 * DAY, created + 31 * DAY, created + 3 * DAY].map(
            String,
          ),
          ['live', created, created + 2 * DAY, created + 30 * DAY, null].map((v) =>
            v === null ? null : String(v),
          ),
        ],
      );
      const user = await db
        .selectFrom('users')
        .select('email_verified_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(user.email_verified_at)).toBe(created);
    } finally {
      await database.drop();
    }
  });
});
