// A fresh, empty database per suite: a temporary DATA_DIR for SQLite, or a `tally_faults_*`
// database created (and dropped again) through the admin URL FAULT_PG_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PG_ADMIN, type DatabaseKind } from './settings.js';

export interface FaultDatabase {
  /** What the server needs to use this database. */
  env: Record<string, string>;
  dataDir: string;
  cleanup: () => Promise<void>;
}

export interface PostgresDatabase extends FaultDatabase {
  url: string;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const tempDataDir = (name: string) => mkdtempSync(path.join(tmpdir(), `tally-faults-${name}-`));

export async function freshPostgres(name: string): Promise<PostgresDatabase> {
  const dataDir = tempDataDir(name);
  const dbName = `tally_faults_${name}`;
  await admin(`drop database if exists ${dbName} with (force)`);
  await admin(`create database ${dbName}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${dbName}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    url: url.toString(),
    cleanup: async () => {
      await admin(`drop database if exists ${dbName} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function freshDatabase(kind: DatabaseKind, name: string): Promise<FaultDatabase> {
  if (kind === 'postgres') return freshPostgres(name);
  const dataDir = tempDataDir(name);
  return {
    env: { DATA_DIR: dataDir },
    dataDir,
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
