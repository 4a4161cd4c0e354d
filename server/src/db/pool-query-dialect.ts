import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type PostgresDialectConfig,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import type { NamedQuery } from './prepared.js';

type CompileQuery = QueryCompiler['compileQuery'];

/**
 * PostgreSQL through Kysely, with single queries sent by `pool.query` (docs/decisions/049-per-request-costs.md).
 * Kysely's PostgresDriver checks a client out of the pool for every query (`await pool.connect()`,
 * query, release): with more requests than clients, that promise-based checkout kept so many young
 * objects alive that garbage collection took several times the reference's (figures in
 * docs/performance.md, the table of "where Tally's own layers cost, and what changed", and
 * --trace-gc). A query outside a transaction now goes through `pool.query`, by name when it is a
 * prepared query; a transaction (and a stream) still holds one client from its begin to its end,
 * through Kysely's own driver.
 */
export class PoolQueryDialect extends PostgresDialect {
  readonly #pool: pg.Pool;

  constructor(config: PostgresDialectConfig & { pool: pg.Pool }) {
    super(config);
    this.#pool = config.pool;
  }

  override createDriver(): Driver {
    return new PoolQueryDriver(this.#pool, super.createDriver());
  }
}

/** A connection that is the pool until a transaction pins one client of it. */
class PoolConnection implements DatabaseConnection {
  /** Kysely's own connection to one client, from begin to commit or rollback. */
  pinned: DatabaseConnection | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly driver: Driver,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // In a transaction Kysely's own connection makes the rows: the same objects, by name.
    if (this.pinned) return this.pinned.executeQuery<R>(compiledQuery);
    // A prepared query's name (db/prepared.ts) makes it a server-side prepared statement: each
    // client parses and plans it once, not on every call (decision 063). One that builds its
    // rows (RowOf) gets them from the driver as lists of values.
    const { name, rowOf } = compiledQuery as NamedQuery;
    const { command, rowCount, rows } = await this.pool.query({
      name,
      text: compiledQuery.sql,
      values: [...compiledQuery.parameters],
      ...(rowOf ? { rowMode: 'array' } : {}),
    });
    return {
      // As Kysely's PostgresConnection reports them.
      numAffectedRows:
        command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
          ? BigInt(rowCount ?? 0)
          : undefined,
      rows: (rowOf ? (rows as unknown[][]).map(rowOf) : (rows ?? [])) as R[],
    };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number) {
    if (this.pinned) {
      yield* this.pinned.streamQuery<R>(compiledQuery, chunkSize);
      return;
    }
    const connection = await this.driver.acquireConnection();
    try {
      yield* connection.streamQuery<R>(compiledQuery, chunkSize);
    } finally {
      await this.driver.releaseConnection(connection);
    }
  }
}

class PoolQueryDriver implements Driver {
  constructor(
    private readonly pool: pg.Pool,
    /** Kysely's PostgresDriver, for everything that needs one client. */
    private readonly driver: Driver,
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PoolConnection(this.pool, this.driver);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const pooled = connection as PoolConnection;
    const pinned = await this.driver.acquireConnection();
    pooled.pinned = pinned;
    try {
      await this.driver.beginTransaction(pinned, settings);
    } catch (error) {
      pooled.pinned = null;
      await this.driver.releaseConnection(pinned);
      throw error;
    }
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(this.pinnedOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(this.pinnedOf(connection));
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery) {
    await this.driver.savepoint?.(this.pinnedOf(connection), name, compileQuery);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: CompileQuery,
  ) {
    await this.driver.rollbackToSavepoint?.(this.pinnedOf(connection), name, compileQuery);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery) {
    await this.driver.releaseSavepoint?.(this.pinnedOf(connection), name, compileQuery);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const pooled = connection as PoolConnection;
    const { pinned } = pooled;
    if (!pinned) return;
    pooled.pinned = null;
    await this.driver.releaseConnection(pinned);
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }

  private pinnedOf(connection: DatabaseConnection): DatabaseConnection {
    const { pinned } = connection as PoolConnection;
    if (!pinned) throw new Error('No transaction on this connection');
    return pinned;
  }
}
