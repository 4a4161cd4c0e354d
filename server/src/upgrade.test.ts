import { accountApi, authApi, groupsApi, todosApi } from '@tally/contract';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from './app.js';
import { hashPassword } from './auth/passwords.js';
import { apiClient } from './test/api-client.js';
import { pgUrl, TEST_SECRET, testConfig } from './test/helpers.js';
import { connect, type DatabaseHandle } from './db/connection.js';
import { migrateToLatest, migrations } from './db/migrate.js';

/**
 * Every earlier 1.x release upgrades directly (docs/upgrading.md): a database as a released
 * server left it, with data in it, is opened by this server, which migrates it and serves it.
 * A release's schema is its set of migrations, which are never edited once released (the files
 * of 0001-0008 are the very ones of the commit that made 1.1.0), so the old database is built by
 * running that set alone and writing rows with the columns it had.
 */
const RELEASES = [
  // 1.0.0: todos, groups, statistics, sign-in.
  { version: '1.0.0', last: '0002-statistics-rollups' },
  // 1.1.0 added sessions, e-mail, planning, completions, tokens and import.
  { version: '1.1.0', last: '0008-import-keys' },
];

const PASSWORD = 'an old release password';

/** An empty database of its own: a folder for SQLite, a schema for PostgreSQL. */
async function emptyDatabase() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tally-upgrade-'));
  let schema: string | undefined;
  if (pgUrl) {
    // Named as test/helpers.ts names the run's schemas (they go with the run's database).
    schema = `test_${inject('pgRun')}_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  const open = () => connect({ databaseUrl: pgUrl, dataDir, pgSchema: schema, poolSize: 2 });
  return { dataDir, schema, open };
}

/** The schema of a release: its migrations, in order, up to and including `last`. */
async function migrateTo(handle: DatabaseHandle, last: string, schema: string | undefined) {
  const all = migrations(handle.dialect);
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => all },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
}

/** What a person had made with that release: an account, a group, two todos (one done). */
async function fillAsTheRelease(handle: DatabaseHandle) {
  const now = Date.parse('2026-11-01T09:00:00Z');
  const hash = await hashPassword(PASSWORD);
  const { db } = handle;
  const { rows: users } = await sql<{ id: number }>`
    insert into users (username, username_lower, email, email_lower, password_hash, created_at)
    values ('Early_Adopter', 'early_adopter', 'early@example.com', 'early@example.com', ${hash}, ${now})
    returning id`.execute(db);
  const userId = users[0]?.id;
  const { rows: groups } = await sql<{ id: number }>`
    insert into todo_groups (user_id, name, name_lower, color, created_at)
    values (${userId}, 'Home', 'home', '#3b82f6', ${now})
    returning id`.execute(db);
  const groupId = groups[0]?.id;
  await sql`
    insert into todos (user_id, group_id, title, description, completed, created_at, updated_at)
    values
      (${userId}, ${groupId}, 'Water the plants', 'Both balconies', 0, ${now}, ${now}),
      (${userId}, null, 'Renew passport', null, 1, ${now + 1000}, ${now + 2000})`.execute(db);
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('upgrading from an earlier 1.x release', () => {
  for (const release of RELEASES) {
    it(`opens a ${release.version} database, migrates it and serves its data`, async () => {
      const database = await emptyDatabase();
      cleanups.push(async () => rmSync(database.dataDir, { recursive: true, force: true }));
      // The old server's run: its schema and its data, then it stops.
      const old = database.open();
      await migrateTo(old, release.last, database.schema);
      await fillAsTheRelease(old);
      await old.db.destroy();

      // This server starts on it as main.ts does: migrate, then serve.
      const handle = database.open();
      cleanups.push(() => handle.db.destroy());
      const applied = await migrateToLatest(handle.db, handle.dialect, database.schema);
      const names = Object.keys(migrations(handle.dialect));
      expect(applied).toEqual(names.slice(names.indexOf(release.last) + 1));
      const app = await buildApp({
        config: testConfig({ dataDir: database.dataDir }),
        database: handle,
        jwtSecret: TEST_SECRET,
        closeDatabase: false,
      });
      cleanups.push(() => app.close());

      const login = await apiClient(app, null)(authApi.login, {
        body: { username: 'early_adopter', password: PASSWORD },
      });
      const signedIn = login.expectBody(200);
      // An account of an old release has no second factor: the login ends with a token.
      if (!('accessToken' in signedIn)) throw new Error('a second step was asked');
      const as = apiClient(app, { token: signedIn.accessToken });

      const todos = (await as(todosApi.list)).expectBody(200);
      expect(todos.map((todo) => [todo.title, todo.completed, todo.description])).toEqual([
        ['Renew passport', true, null],
        ['Water the plants', false, 'Both balconies'],
      ]);
      const groups = (await as(groupsApi.list)).expectBody(200);
      expect(groups.map((group) => [group.name, group.color])).toEqual([['Home', '#3b82f6']]);
      const account = (await as(accountApi.get)).expectBody(200);
      expect(account).toMatchObject({ username: 'Early_Adopter', email: 'early@example.com' });

      // And it keeps working: a write, then the export holds old and new.
      const created = await as(todosApi.create, { body: { title: 'After the upgrade' } });
      expect(created.statusCode).toBe(201);
      const exported = (await as(accountApi.export)).expectBody(200);
      expect(exported.todos.map((todo) => todo.title).sort()).toEqual([
        'After the upgrade',
        'Renew passport',
        'Water the plants',
      ]);
    });
  }
});
