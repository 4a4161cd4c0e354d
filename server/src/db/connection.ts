import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type Dialect as KyselyDialect, Kysely, SqliteDialect } from 'kysely';
import type pg from 'pg';
import { observedDialect, type QueryObserver } from './observed-dialect.js';
import { PoolQueryDialect } from './pool-query-dialect.js';
import type { Database } from './schema.js';
import { makePrivateDir, makePrivateFile } from './private-files.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for logs: the SQLite file or the PostgreSQL host/database. */
  location: string;
  /** What /metrics reports about the connections (server/src/plugins/metrics.ts). */
  stats: () => DatabaseStats;
  /**
   * PostgreSQL only: a new client outside the pool, with the pool's settings, for a connection
   * that is held for good (LISTEN, server/src/plugins/live-bus.ts).
   */
  dedicatedClient?: () => pg.Client;
  /** Sets (or clears) the observer of every query (tracing, server/src/plugins/tracing.ts). */
  observeQueries: (observer: QueryObserver | null) => void;
}

/** What the database can say about its connections; each dialect fills in its own part. */
export interface DatabaseStats {
  /** PostgreSQL: the node-postgres pool's clients. */
  pool?: { total: number; idle: number; waiting: number };
  /** SQLite: prepared statements kept for reuse (withStatementCache below). */
  statementCacheEntries?: number;
  /** SQLite: the database file and its write-ahead log, in bytes. */
  fileBytes?: { database: number; wal: number };
}

export interface ConnectOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL only: the schema to use (tests give each run its own). */
  pgSchema?: string;
  /** PostgreSQL only: pool size. */
  poolSize?: number;
}

const PG_INT8 = 20;

/**
 * The one place that picks the dialect: DATABASE_URL → PostgreSQL over node-postgres,
 * otherwise SQLite (better-sqlite3, WAL) in DATA_DIR.
 */
export function connect(options: ConnectOptions): DatabaseHandle {
  let observer: QueryObserver | null = null;
  const observed = (dialect: KyselyDialect) => observedDialect(dialect, () => observer);
  const handle = options.databaseUrl
    ? connectPostgres(options.databaseUrl, options, observed)
    : connectSqlite(options.dataDir, observed);
  return {
    ...handle,
    observeQueries: (next) => {
      observer = next;
    },
  };
}

type Observed = (dialect: KyselyDialect) => KyselyDialect;

/** The SQLite database file in DATA_DIR (the backups copy it and restore it in place). */
export const sqliteFile = (dataDir: string) => path.join(dataDir, 'tally.db');

function connectSqlite(
  dataDir: string,
  observed: Observed,
): Omit<DatabaseHandle, 'observeQueries'> {
  makePrivateDir(dataDir);
  const file = sqliteFile(dataDir);
  let sqlite: SqliteDatabase.Database;
  try {
    // SQLite gives its -wal and -shm files the database file's permissions.
    makePrivateFile(file);
    sqlite = new SqliteDatabase(file, { fileMustExist: false });
    // Reading the schema forces SQLite to parse the file: a corrupt or foreign file fails here,
    // at start, instead of being silently replaced.
    sqlite.pragma('schema_version');
  } catch (error) {
    throw new Error(
      `Cannot open the SQLite database at ${file}: ${(error as Error).message}. ` +
        'Move the file away to start with an empty database, or restore a backup.',
      { cause: error },
    );
  }
  sqlite.pragma('journal_mode = WAL');
  // FULL: every commit is fsynced to the WAL before the 2xx goes out (docs/decisions/003-sqlite-durability.md).
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const cached = withStatementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: observed(new SqliteDialect({ database: cached })),
  });
  const bytes = (name: string) => (existsSync(name) ? statSync(name).size : 0);
  const stats = () => ({
    statementCacheEntries: cached.size(),
    fileBytes: { database: bytes(file), wal: bytes(`${file}-wal`) },
  });
  return { db, dialect: 'sqlite', location: file, stats };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; better-sqlite3 statements can be reused, and preparing
 * costs more than running the indexed queries Tally makes. Kysely runs one query at a time on
 * SQLite and never iterates, so sharing a statement is safe. Oldest entries are dropped first.
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    size: () => statements.size,
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          statements.delete(statements.keys().next().value as string);
        }
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * node-postgres is loaded only when DATABASE_URL asks for it: on SQLite its modules would hold
 * heap for nothing (docs/performance.md, Memory). connect() stays synchronous.
 */
const loadPg = () => createRequire(import.meta.url)('pg') as typeof pg;

function connectPostgres(
  databaseUrl: string,
  options: ConnectOptions,
  observed: Observed,
): Omit<DatabaseHandle, 'observeQueries'> {
  const { Client, Pool, types } = loadPg();
  const settings = {
    connectionString: databaseUrl,
    connectionTimeoutMillis: 5_000,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    // COUNT(*) and BIGINT epoch milliseconds come back as numbers, as they do on SQLite.
    types: {
      // Asked once per column of every result: one parser for all, not a new one each time.
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8
          ? Number
          : types.getTypeParser(oid, format ?? 'text')) as typeof types.getTypeParser,
    },
  };
  const pool = new Pool({ ...settings, max: options.poolSize ?? 10 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: observed(new PoolQueryDialect({ pool })) });
  const url = new URL(databaseUrl);
  const stats = () => ({
    pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
  });
  return {
    db,
    dialect: 'postgres',
    location: `${url.host}${url.pathname}`,
    stats,
    dedicatedClient: () => new Client(settings),
  };
}
