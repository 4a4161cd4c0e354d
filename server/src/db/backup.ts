import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { Config } from '../config.js';
import { sqliteFile } from './connection.js';
import { makePrivateDir, makePrivateFile } from './private-files.js';

/**
 * Online backup and restore (`tally backup`, `tally restore`, the schedule of
 * server/src/db/backup-schedule.ts and the backup before a migration). SQLite: the backup API
 * copies a consistent snapshot while the server keeps writing. PostgreSQL: pg_dump/pg_restore in
 * custom format. A backup is written under a temporary name and renamed when complete, so a file
 * with a backup's name is always a whole one (docs/decisions/130-scheduled-backups.md).
 */

type Where = Pick<Config, 'dataDir' | 'databaseUrl'>;

/** The most pages better-sqlite3 lets one backup step copy. */
const ALL_PAGES = 0x7fffffff;

/** The folder of the default, scheduled and pre-migration backups: DATA_DIR/backups. */
export const backupDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'backups');

const stampOf = (time: number) => new Date(time).toISOString().replace(/[:.]/g, '-');
const extensionOf = (config: Where) => (config.databaseUrl ? 'dump' : 'db');

/** Where a backup goes when no target is given: DATA_DIR/backups/tally-<time>.(db|dump). */
export function defaultBackupTarget(config: Where, time = Date.now()): string {
  return path.join(backupDir(config), `tally-${stampOf(time)}.${extensionOf(config)}`);
}

/** The backup taken before migrations run: kept apart from the scheduled ones' retention. */
export function preMigrationTarget(config: Where, firstPending: string, time: number): string {
  return path.join(
    backupDir(config),
    `before-${firstPending}-${stampOf(time)}.${extensionOf(config)}`,
  );
}

/**
 * Fails unless SQLite finds the file sound.
 *
 * @public Used by the fault suites from the built server (server/faults/src/durability.ts).
 */
export function checkSqliteFile(file: string): void {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma('integrity_check', { simple: true });
    if (result !== 'ok')
      throw new Error(`${file} fails SQLite's integrity check: ${String(result)}`);
  } finally {
    db.close();
  }
}

/** Whether pg_dump runs here: PostgreSQL backups need it (the image ships it). */
export function pgDumpAvailable(): boolean {
  const result = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' });
  return !result.error && result.status === 0;
}

export async function backupDatabase(config: Where, target: string): Promise<void> {
  const final = path.resolve(target);
  mkdirSync(path.dirname(final), { recursive: true });
  const partial = `${final}.partial`;
  rmSync(partial, { force: true });
  // A backup holds what the database holds: owner-only from its first byte.
  makePrivateFile(partial);
  try {
    if (config.databaseUrl) {
      run('pg_dump', ['--format=custom', '--no-owner', '--file', partial, config.databaseUrl]);
    } else {
      const db = new SqliteDatabase(sqliteFile(config.dataDir), { fileMustExist: true });
      try {
        db.pragma('busy_timeout = 5000');
        // All pages in one step: SQLite starts a stepwise backup over whenever another
        // connection writes between its steps, so under steady writes one of many steps never
        // finishes. One step reads one consistent snapshot (the event loop waits for the copy).
        await db.backup(partial, { progress: () => ALL_PAGES });
      } finally {
        db.close();
      }
      // The copy takes the source's WAL mode; as a rollback-journal file it is one
      // self-contained file, with no -wal or -shm beside it to lose or mismatch.
      const copy = new SqliteDatabase(partial, { fileMustExist: true });
      try {
        copy.pragma('journal_mode = DELETE');
      } finally {
        copy.close();
      }
      checkSqliteFile(partial);
    }
    renameSync(partial, final);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Deletes all but the newest `keep` scheduled backups (tally-*.db or .dump) in DATA_DIR/backups;
 * the backups taken before migrations and any other file stay. Returns the names deleted.
 */
export function pruneBackups(config: Pick<Config, 'dataDir'>, keep: number): string[] {
  const dir = backupDir(config);
  if (!existsSync(dir)) return [];
  // The names carry an ISO time, so the name order is the time order.
  const scheduled = readdirSync(dir)
    .filter((name) => /^tally-.+\.(db|dump)$/.test(name))
    .sort();
  const old = scheduled.slice(0, Math.max(0, scheduled.length - keep));
  for (const name of old) rmSync(path.join(dir, name), { force: true });
  return old;
}

export interface BackupFile {
  name: string;
  /** The file's modification time, epoch ms. */
  at: number;
  bytes: number;
}

/** The newest backup in DATA_DIR/backups, of any kind; null when there is none. */
export function latestBackup(config: Pick<Config, 'dataDir'>): BackupFile | null {
  const dir = backupDir(config);
  if (!existsSync(dir)) return null;
  let latest: BackupFile | null = null;
  for (const name of readdirSync(dir)) {
    if (!/\.(db|dump)$/.test(name)) continue;
    const stats = statSync(path.join(dir, name));
    if (!latest || stats.mtimeMs > latest.at) {
      latest = { name, at: Math.round(stats.mtimeMs), bytes: stats.size };
    }
  }
  return latest;
}

export interface VerifiedBackup {
  kind: 'sqlite' | 'postgres';
  /** The newest migration the backup's schema had; null when pg_restore cannot tell. */
  migration: string | null;
  /** SQLite: how many accounts and todos it holds. */
  users: number | null;
  todos: number | null;
}

/**
 * Checks a backup without restoring it: a SQLite file must pass SQLite's integrity check and
 * hold Tally's tables; a PostgreSQL dump must be read through to its end by pg_restore (a
 * truncated or damaged archive fails). Throws a sentence saying what is wrong.
 */
export function verifyBackup(file: string): VerifiedBackup {
  if (!existsSync(file)) throw new Error(`No backup at ${file}`);
  const head = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') {
    run('pg_restore', ['--file', '/dev/null', file]);
    const listing = run('pg_restore', [
      '--data-only',
      '--table=kysely_migration',
      '--file=-',
      file,
    ]);
    const names = [...listing.matchAll(/^(\d{4}-[a-z0-9-]+)\t/gm)].map((m) => m[1] as string);
    return { kind: 'postgres', migration: names.sort().at(-1) ?? null, users: null, todos: null };
  }
  if (head.toString('latin1') !== 'SQLite format 3\0') {
    throw new Error(`${file} is neither a SQLite database nor a pg_dump archive`);
  }
  checkSqliteFile(file);
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      (
        db.prepare(`select name from sqlite_master where type = 'table'`).all() as {
          name: string;
        }[]
      ).map((row) => row.name),
    );
    for (const table of ['kysely_migration', 'users', 'todos']) {
      if (!tables.has(table))
        throw new Error(`${file} is not a Tally database (no ${table} table)`);
    }
    const one = (query: string) => db.prepare(query).pluck().get() as number | string | null;
    return {
      kind: 'sqlite',
      migration: one('select max(name) from kysely_migration') as string | null,
      users: Number(one('select count(*) from users')),
      todos: Number(one('select count(*) from todos')),
    };
  } finally {
    db.close();
  }
}

/** Replaces the configured database's contents with the backup. Stop the server first. */
export function restoreDatabase(config: Where, backup: string): void {
  if (!existsSync(backup)) throw new Error(`No backup at ${backup}`);
  if (config.databaseUrl) {
    run('pg_restore', [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      '--dbname',
      config.databaseUrl,
      backup,
    ]);
    return;
  }
  checkSqliteFile(backup);
  const target = sqliteFile(config.dataDir);
  makePrivateDir(config.dataDir);
  const staging = `${target}.restoring`;
  copyFileSync(backup, staging);
  chmodSync(staging, 0o600);
  // The old WAL belongs to the old file: replaying it onto the restored one would corrupt it.
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  renameSync(staging, target);
  checkSqliteFile(target);
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} failed (exit ${result.status}): ${result.stderr.trim()}`);
  }
  return result.stdout;
}
