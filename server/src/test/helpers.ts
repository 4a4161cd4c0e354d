import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { authApi, calendarApi, type SignInResponse, todosApi, tokensApi } from '@tally/contract';
import { inject } from 'vitest';
import { type AppOptions, buildApp } from '../app.js';
import { setPasswordCost } from '../auth/passwords.js';
import { adminQuery } from './pg-schemas.js';
import { apiClient } from './api-client.js';
import { type Config, loadConfig } from '../config.js';
import { connect, type DatabaseHandle } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';

/**
 * Test harness: a fresh database per test file (a temporary SQLite file, or, when
 * TEST_DATABASE_URL is set, a PostgreSQL schema of its own so parallel runs never collide),
 * an app built on it, and a clock the test can move.
 */

/**
 * Test accounts' passwords are hashed with the same argon2id at a test cost (1 MiB, one pass) so that registering hundreds of users stays fast; the tests of hashing itself set
 * PASSWORD_COST back (security/brute-force.test.ts).
 */
export const TEST_PASSWORD_COST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
setPasswordCost(TEST_PASSWORD_COST);

export const TEST_SECRET = 'test-secret-that-is-at-least-32-bytes-long!';
export const pgUrl = process.env.TEST_DATABASE_URL || null;
/**
 * Redis for the cases that prove limits and events hold across processes: TEST_REDIS_URL, and in
 * CI (CI=true, as .ci/run sets) the local Redis always, so a Redis that is absent there fails
 * those cases instead of skipping them.
 */
export const redisUrl =
  process.env.TEST_REDIS_URL || (process.env.CI === 'true' ? 'redis://127.0.0.1:6379' : null);

export interface TestDatabase {
  handle: DatabaseHandle;
  dataDir: string;
  /** Connects again to the same data (a "restart"). */
  reconnect(): DatabaseHandle;
  drop(): Promise<void>;
}

/**
 * A migrated database for one test: a fresh SQLite file, or on PostgreSQL a schema of its own in
 * the run's database. A test that migrates down (and so drops tables) asks for `ownDatabase`:
 * Kysely's migrator reads the tables of every schema of its database, so a table dropped in a
 * schema beside it while another file migrates fails that file's migration ("relation … does
 * not exist"), and the server's files run two at a time (decision 190).
 */
export async function createTestDatabase({ ownDatabase = false } = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tally-test-'));
  let schema: string | undefined;
  let databaseUrl = pgUrl;
  let dropDatabase = async (): Promise<void> => undefined;
  if (pgUrl && ownDatabase) {
    const own = new URL(pgUrl);
    const name = `${own.pathname.slice(1)}_${randomBytes(4).toString('hex')}`;
    await adminQuery(pgUrl, `create database ${name}`);
    own.pathname = `/${name}`;
    databaseUrl = own.toString();
    dropDatabase = () => adminQuery(pgUrl, `drop database if exists ${name} with (force)`);
  } else if (pgUrl) {
    schema = `test_${inject('pgRun')}_${randomBytes(6).toString('hex')}`;
    await adminQuery(pgUrl, `create schema ${schema}`);
  }
  const open = () => connect({ databaseUrl, dataDir, pgSchema: schema, poolSize: 5 });
  const handle = open();
  await migrateToLatest(handle.db, handle.dialect, schema);
  return {
    handle,
    dataDir,
    reconnect: open,
    async drop() {
      // A PostgreSQL schema goes with the run's database once the run ends (test/pg-schemas.ts).
      await handle.db.destroy();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export class TestClock {
  constructor(public current = Date.parse('2026-03-10T12:00:00Z')) {}
  readonly now = () => this.current;
  advance(ms: number) {
    this.current += ms;
  }
  set(iso: string) {
    this.current = Date.parse(iso);
  }
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    webDistDir: null,
    authRateLimitPerMinute: 100_000,
    loginAttemptsPerAccount: 100_000,
    ...overrides,
  };
}

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
  clock: TestClock;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    config?: Partial<Config>;
    database?: TestDatabase;
    clock?: TestClock;
    onRoute?: AppOptions['onRoute'];
    /** The app's logger (none by default); the security-log tests read its lines. */
    logger?: AppOptions['logger'];
    /** The reminder poller's interval; by default none (tests call sendDueReminders). */
    reminderPollMs?: number;
    liveHeartbeatMs?: number;
    /** The e-mail-to-task fetcher (with INBOX_* in config); none by default. */
    inboxFetcher?: AppOptions['inboxFetcher'];
  } = {},
): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  const clock = options.clock ?? new TestClock();
  const app = await buildApp({
    config: testConfig({ dataDir: database.dataDir, ...options.config }),
    database: database.handle,
    jwtSecret: TEST_SECRET,
    clock: clock.now,
    closeDatabase: false,
    reminderPollMs: options.reminderPollMs ?? 0,
    notificationPollMs: 0,
    // The reminder tests' push service listens on loopback.
    allowLoopbackPush: true,
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.liveHeartbeatMs ? { liveHeartbeatMs: options.liveHeartbeatMs } : {}),
    inboxFetcher: options.inboxFetcher ?? false,
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    async close() {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}

export interface TestUser {
  /** The user's id, read from the access token's `uid` claim. */
  id: number;
  username: string;
  password: string;
  email: string;
  token: string;
  /** The refresh cookie as a Cookie header value. */
  refreshCookie: string;
}

let userCounter = 0;

export function uniqueName(prefix = 'user') {
  userCounter += 1;
  return `${prefix}${userCounter}_${randomBytes(3).toString('hex')}`;
}

export function refreshCookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'tally_refresh');
  if (!cookie) throw new Error('no refresh cookie in the response');
  return `tally_refresh=${cookie.value}`;
}

export async function registerUser(
  app: FastifyInstance,
  username = uniqueName(),
): Promise<TestUser> {
  const password = 'correct horse battery';
  const email = `${username}@example.com`;
  const answer = await apiClient(app, null)(authApi.register, {
    body: { username, email, password },
  });
  if (answer.statusCode !== 201) throw new Error(`register failed: ${answer.body}`);
  const token = answer.data().accessToken;
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    uid: number;
  };
  return {
    id: claims.uid,
    username,
    password,
    email,
    token,
    refreshCookie: refreshCookieOf(answer),
  };
}

/** inject() as the given user. */
export function as(app: FastifyInstance, user: Pick<TestUser, 'token'>) {
  return (options: InjectOptions) =>
    app.inject({
      ...options,
      headers: { authorization: `Bearer ${user.token}`, ...options.headers },
    });
}

/**
 * The user signed in again at the app's current (test) time: moving the clock on expires the
 * tokens signed before.
 */
export async function signInAgain(app: FastifyInstance, user: TestUser): Promise<TestUser> {
  const answer = await apiClient(app, null)(authApi.login, {
    body: { username: user.username, password: user.password },
  });
  if (answer.statusCode !== 200) throw new Error(`login failed: ${answer.body}`);
  return { ...user, token: accessTokenOf(answer.data()) };
}

/**
 * What a change of a way to sign in may end besides, made for the user (who proved identity
 * recently): a second signed-in device, a personal API token and the calendar feed.
 */
export async function otherAccessOf(app: FastifyInstance, user: TestUser) {
  const call = apiClient(app, user);
  const device = await signInAgain(app, user);
  const apiToken = await call(tokensApi.create, {
    body: { name: 'Script', scope: 'read-write', expiresInDays: null },
  });
  const feed = await call(calendarApi.regenerate);
  const statusWith = async (token: string) =>
    (await apiClient(app, { token })(todosApi.list)).statusCode;
  const feedPath = feed.data().path;
  /** Whether each still works: 200, or 401 (404 for the feed) once ended. */
  return async () => ({
    otherDevice: await statusWith(device.token),
    apiToken: await statusWith(apiToken.data().token),
    feed: (await app.inject({ method: 'GET', url: feedPath })).statusCode,
    thisDevice: await statusWith(user.token),
  });
}

/** The access token of a sign-in's answer (a test fails when the answer asks for a second step). */
function accessTokenOf(answer: SignInResponse): string {
  if (!('accessToken' in answer)) throw new Error('the sign-in asked for a second step');
  return answer.accessToken;
}

/**
 * Waits until the app's counters reach Redis: until its connection is up they answer from the
 * process's memory (plugins/counters.ts), and a test reading Redis would find nothing.
 */
export async function untilCountersInRedis(
  ctx: TestContext,
  redis: Pick<Redis, 'exists' | 'del'>,
): Promise<void> {
  const probe = `connection-probe:${randomBytes(8).toString('hex')}`;
  for (let tries = 0; tries < 100; tries += 1) {
    await ctx.app.counters.hit(probe, 60_000);
    if ((await redis.exists(`tally:limits:${probe}`)) === 1) {
      await redis.del(`tally:limits:${probe}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the app never reached Redis');
}
