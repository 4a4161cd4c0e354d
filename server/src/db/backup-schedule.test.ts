import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { loadConfig } from '../config.js';
import { TestClock, testConfig } from '../test/helpers.js';
import { backupDir, backupDatabase, verifyBackup } from './backup.js';
import { backupJob } from './backup-schedule.js';
import { connect, type DatabaseHandle } from './connection.js';
import { backupBeforeMigrations, migrateToLatest, migrations } from './migrate.js';
import { type Kysely, Migrator } from 'kysely';
import type { Database } from './schema.js';

/**
 * Scheduled backups, the backup before migrations and `tally restore --verify`, on SQLite and,
 * with TEST_DATABASE_URL, on PostgreSQL through pg_dump (a database of its own per case: pg_dump
 * backs up a whole database).
 */

const pgUrl = process.env.TEST_DATABASE_URL || null;
const work = mkdtempSync(path.join(tmpdir(), 'tally-backup-schedule-'));
const databases: string[] = [];
const handles: DatabaseHandle[] = [];
// An app without a logger has one that writes nothing.
const silent = Fastify().log;

async function admin(query: string) {
  const client = new pg.Client({ connectionString: pgUrl as string });
  await client.connect();
  await client.query(query);
  await client.end();
}

/** An empty database (not migrated) with its own DATA_DIR. */
async function freshDatabase() {
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  let databaseUrl: string | null = null;
  if (pgUrl) {
    const name = `tally_schedule_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    databases.push(name);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const config = { dataDir, databaseUrl };
  const handle = connect(config);
  handles.push(handle);
  return { config, handle };
}

afterAll(async () => {
  for (const handle of handles) await handle.db.destroy();
  for (const name of databases) await admin(`drop database if exists ${name} with (force)`);
  rmSync(work, { recursive: true, force: true });
});

/** An account row as every release since 0001 writes it (without the columns 0020 adds). */
const addUser = (db: Kysely<Database>, username: string, now: number) =>
  db
    .insertInto('users')
    .values({
      username,
      username_lower: username,
      email: `${username}@example.com`,
      email_lower: `${username}@example.com`,
      password_hash: null,
      google_subject: null,
      created_at: now,
      email_verified_at: null,
      password_reset_at: null,
      oidc_issuer: null,
      oidc_subject: null,
      todo_sorts: null,
    })
    .execute();

const backupsIn = (dataDir: string) => readdirSync(backupDir({ dataDir })).sort();

async function tally(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(
    argv,
    {
      stdin: Readable.from([]),
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
    },
    { config: testConfig({ dataDir: work }) },
  );
  return { code, out, err };
}

describe('BACKUP_SCHEDULE', () => {
  it('takes one backup at each time of the schedule across processes and keeps BACKUP_KEEP', async () => {
    const { config, handle } = await freshDatabase();
    await migrateToLatest(handle.db, handle.dialect);
    const clock = new TestClock(Date.parse('2026-03-10T12:10:00Z'));
    const options = {
      db: handle.db,
      log: silent,
      config: { ...config, backup: { schedule: '0 * * * *', keep: 2 } },
      clock: clock.now,
      schedule: '0 * * * *',
    };
    // Two server processes on one database, each with its own job.
    const jobs = [backupJob(options), backupJob(options)];
    const tickAll = async () => (await Promise.all(jobs.map((job) => job.tick()))).filter(Boolean);

    // The schedule counts from the first look: a new server takes no backup at once.
    expect(await tickAll()).toHaveLength(0);
    clock.set('2026-03-10T12:59:00Z');
    expect(await tickAll()).toHaveLength(0);
    clock.set('2026-03-10T13:00:00Z');
    expect(await tickAll()).toHaveLength(1);
    expect(await tickAll()).toHaveLength(0);
    const [first] = backupsIn(config.dataDir);
    expect(first).toMatch(/^tally-2026-03-10T13-00-00-000Z\.(db|dump)$/);
    expect(verifyBackup(path.join(backupDir(config), first as string)).kind).toBe(handle.dialect);

    // A backup taken before a migration is not one of the scheduled ones: it stays.
    const extension = config.databaseUrl ? 'dump' : 'db';
    const kept = `before-0020-operators-and-audit-log-2026-03-01T00-00-00-000Z.${extension}`;
    copyFileSync(path.join(backupDir(config), first as string), path.join(backupDir(config), kept));

    for (const hour of ['14', '15', '16']) {
      clock.set(`2026-03-10T${hour}:00:30Z`);
      expect(await tickAll()).toHaveLength(1);
    }
    expect(backupsIn(config.dataDir)).toEqual([
      kept,
      `tally-2026-03-10T15-00-30-000Z.${extension}`,
      `tally-2026-03-10T16-00-30-000Z.${extension}`,
    ]);
  });

  it('is refused unless it is a five-field cron expression or a nickname', () => {
    expect(loadConfig({ BACKUP_SCHEDULE: '30 3 * * *', BACKUP_KEEP: '3' }).backup).toEqual({
      schedule: '30 3 * * *',
      keep: 3,
    });
    expect(loadConfig({ BACKUP_SCHEDULE: '@daily' }).backup.schedule).toBe('@daily');
    expect(loadConfig({}).backup).toEqual({ schedule: null, keep: 7 });
    for (const bad of ['every night', '0 0 3 * * *', '61 * * * *']) {
      expect(() => loadConfig({ BACKUP_SCHEDULE: bad })).toThrow(/BACKUP_SCHEDULE must be a cron/);
    }
    expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP must be a whole number/);
  });
});

describe('the backup before migrations', () => {
  it('backs up a database with data before its schema changes, and only then', async () => {
    const { config, handle } = await freshDatabase();
    const now = Date.parse('2026-03-10T12:00:00Z');
    // A new, empty database has nothing to lose.
    expect(await backupBeforeMigrations(handle, config, now)).toEqual({
      file: null,
      skipped: null,
    });

    // The previous release's schema (up to 0019), with an account in it.
    const older = Object.fromEntries(
      Object.entries(migrations(handle.dialect)).filter(([name]) => name < '0020'),
    );
    const { error } = await new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => older },
    }).migrateToLatest();
    expect(error).toBeUndefined();
    await addUser(handle.db, 'kept_user', now);

    const backup = await backupBeforeMigrations(handle, config, now);
    expect(backup.file).toBe(
      path.join(
        backupDir(config),
        `before-0020-operators-and-audit-log-2026-03-10T12-00-00-000Z.${config.databaseUrl ? 'dump' : 'db'}`,
      ),
    );
    const found = verifyBackup(backup.file as string);
    expect(found.migration).toBe('0019-versions');
    if (!config.databaseUrl) expect(found.users).toBe(1);

    await migrateToLatest(handle.db, handle.dialect);
    // Up to date: no migration, no backup.
    expect(await backupBeforeMigrations(handle, config, now + 1000)).toEqual({
      file: null,
      skipped: null,
    });
  });
});

describe('tally restore --verify', () => {
  it('says a good backup is sound and refuses a damaged one, restoring nothing', async () => {
    const { config, handle } = await freshDatabase();
    await migrateToLatest(handle.db, handle.dialect);
    for (let i = 0; i < 200; i++) {
      await addUser(handle.db, `user_${i}`, Date.now());
    }
    const good = path.join(
      work,
      `good-${randomBytes(3).toString('hex')}.${config.databaseUrl ? 'dump' : 'db'}`,
    );
    await backupDatabase(config, good);
    const checked = await tally(['restore', '--verify', good]);
    expect(checked.err).toBe('');
    expect(checked.code).toBe(0);
    // The schema a backup reports is the newest migration's.
    const latest = Object.keys(migrations(config.databaseUrl ? 'postgres' : 'sqlite')).at(-1);
    expect(checked.out).toContain(
      config.databaseUrl
        ? `is a sound PostgreSQL backup (schema ${latest})`
        : `is a sound SQLite backup (schema ${latest}): 200 accounts, 0 todos`,
    );

    const damaged = `${good}.damaged`;
    copyFileSync(good, damaged);
    if (config.databaseUrl) {
      // A dump cut short, as a full disk leaves it.
      truncateSync(damaged, Math.floor(statSync(damaged).size / 2));
    } else {
      // Pages overwritten in the middle of the file.
      const fd = openSync(damaged, 'r+');
      writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, 4096 * 2);
      closeSync(fd);
    }
    const refused = await tally(['restore', '--verify', damaged]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(config.databaseUrl ? /pg_restore failed/ : /malformed|integrity/);

    const foreign = path.join(work, 'notes.txt');
    copyFileSync(path.join(import.meta.dirname, 'backup.ts'), foreign);
    expect((await tally(['restore', '--verify', foreign])).err).toMatch(
      /neither a SQLite database nor a pg_dump archive/,
    );
  });
});
