import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { statisticsApi, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { backupDatabase, restoreDatabase } from './backup.js';
import { connect } from './connection.js';
import { migrateToLatest } from './migrate.js';

/**
 * `npm run db:backup` / `db:restore`: an online backup taken while writes go on, restored into
 * an emptied database, gives back exactly the data acknowledged before the backup.
 */

const pgUrl = process.env.TEST_DATABASE_URL || null;
const work = mkdtempSync(path.join(tmpdir(), 'tally-backup-'));
let databaseUrl: string | null = null;
let dbName = '';

beforeAll(async () => {
  if (pgUrl) {
    // pg_dump works on a whole database: this test gets one of its own.
    dbName = `tally_backup_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
});
afterAll(async () => {
  if (pgUrl) {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
  rmSync(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('backs up online under writes and restores exactly what was acknowledged', async () => {
    const config = { dataDir: path.join(work, 'data'), databaseUrl };
    const handle = connect(config);
    await migrateToLatest(handle.db, handle.dialect);
    const database = {
      handle,
      dataDir: config.dataDir,
      reconnect: () => connect(config),
      drop: async () => undefined,
    };
    let ctx: TestContext = await createTestApp({ database });
    const user = await registerUser(ctx.app);
    // The app of the moment (the test builds it again after the restore).
    const call = () => apiClient(ctx.app, user);
    const create = (title: string) => call()(todosApi.create, { body: { title } });
    for (let i = 0; i < 20; i++) await create(`before ${i}`);
    const before = (await call()(todosApi.list)).expectBody(200);
    // Writes keep going while the backup runs.
    const target = path.join(work, databaseUrl ? 'tally.dump' : 'tally-backup.db');
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing) {
        await create(`during ${n++}`);
      }
      return n;
    })();
    await backupDatabase(config, target);
    writing = false;
    expect(await writer).toBeGreaterThan(0);
    expect(statSync(target).size).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) await create(`after ${i}`);

    await ctx.app.close();
    await handle.db.destroy();
    restoreDatabase(config, target);

    const reopened = { ...database, handle: connect(config) };
    await migrateToLatest(reopened.handle.db, reopened.handle.dialect);
    ctx = await createTestApp({ database: reopened });
    const todos = (await call()(todosApi.list)).expectBody(200);
    const titles = todos.map((t) => t.title);
    // Everything acknowledged before the backup is back, nothing written after it.
    for (const t of before) expect(titles).toContain(t.title);
    expect(titles.some((t) => t.startsWith('after'))).toBe(false);
    const totals = (await call()(statisticsApi.total)).expectBody(200);
    expect(totals.todosCreated).toBe(todos.length);
    await ctx.app.close();
    await reopened.handle.db.destroy();
  });
});
