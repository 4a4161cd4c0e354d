import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, registerUser, type TestContext } from '../test/helpers.js';
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
    const call = () => as(ctx.app, user);
    for (let i = 0; i < 20; i++) {
      await call()({ method: 'POST', url: '/api/todos', payload: { title: `before ${i}` } });
    }
    const before = (await call()({ method: 'GET', url: '/api/todos' })).body;
    // Writes keep going while the backup runs.
    const target = path.join(work, databaseUrl ? 'tally.dump' : 'tally-backup.db');
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing) {
        await call()({ method: 'POST', url: '/api/todos', payload: { title: `during ${n++}` } });
      }
      return n;
    })();
    await backupDatabase(config, target);
    writing = false;
    expect(await writer).toBeGreaterThan(0);
    expect(statSync(target).size).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) {
      await call()({ method: 'POST', url: '/api/todos', payload: { title: `after ${i}` } });
    }

    await ctx.app.close();
    await handle.db.destroy();
    restoreDatabase(config, target);

    const reopened = { ...database, handle: connect(config) };
    await migrateToLatest(reopened.handle.db, reopened.handle.dialect);
    ctx = await createTestApp({ database: reopened });
    const todos = (await call()({ method: 'GET', url: '/api/todos' })).json<{ title: string }[]>();
    const titles = todos.map((t) => t.title);
    // Everything acknowledged before the backup is back, nothing written after it.
    for (const t of JSON.parse(before) as { title: string }[]) expect(titles).toContain(t.title);
    expect(titles.some((t) => t.startsWith('after'))).toBe(false);
    const totals = (await call()({ method: 'GET', url: '/api/statistics/total' })).json<{
      todosCreated: number;
    }>();
    expect(totals.todosCreated).toBe(todos.length);
    await ctx.app.close();
    await reopened.handle.db.destroy();
  });
});
