import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { Config } from '../config.js';
import { sqliteFile } from './connection.js';
import { makePrivateDir, makePrivateFile } from './private-files.js';

/**
 * Online backup and restore (`npm run db:backup`, `npm run db:restore`). SQLite: the backup API
 * copies a consistent snapshot while the server keeps writing. PostgreSQL: pg_dump/pg_restore in
 * custom format.
 */

/** Where a backup goes when no target is given: DATA_DIR/backups/tally-<time>.(db|dump). */
export function defaultBackupTarget(config: Pick<Config, 'dataDir' | 'databaseUrl'>): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return path.join(
    config.dataDir,
    'backups',
    `tally-${stamp}.${config.databaseUrl ? 'dump' : 'db'}`,
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

export async function backupDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  target: string,
): Promise<void> {
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  // A backup holds what the database holds: owner-only from its first byte.
  makePrivateFile(target);
  if (config.databaseUrl) {
    run('pg_dump', ['--format=custom', '--no-owner', '--file', target, config.databaseUrl]);
    return;
  }
  const source = sqliteFile(config.dataDir);
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target);
  } finally {
    db.close();
  }
  checkSqliteFile(target);
}

/** Replaces the configured database's contents with the backup. Stop the server first. */
export function restoreDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  backup: string,
): void {
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

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} failed (exit ${result.status}): ${result.stderr.trim()}`);
  }
}
