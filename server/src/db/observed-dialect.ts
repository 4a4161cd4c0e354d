import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/**
 * Told of every query the app runs, with its statement text (placeholders, never the values),
 * around its execution; the tracing plugin (server/src/plugins/tracing.ts) is the one observer.
 */
export type QueryObserver = <T>(statement: string, run: () => Promise<T>) => Promise<T>;

/**
 * The dialect, with each connection's queries passed through the current observer when there is
 * one. At the connection, not in a Kysely plugin: a plugin sees the query tree before it is
 * compiled and is not told when a query fails, so its span would have no text and never end.
 */
export function observedDialect(inner: Dialect, current: () => QueryObserver | null): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: () => observedDriver(inner.createDriver(), current),
  };
}

class ObservedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly current: () => QueryObserver | null,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const observe = this.current();
    if (!observe) return this.inner.executeQuery<R>(query);
    return observe(query.sql, () => this.inner.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** The driver hands out observed connections and takes its own back for transactions. */
function observedDriver(inner: Driver, current: () => QueryObserver | null): Driver {
  const own = (connection: DatabaseConnection) =>
    connection instanceof ObservedConnection ? connection.inner : connection;
  const driver: Driver = {
    init: () => inner.init(),
    acquireConnection: async () => new ObservedConnection(await inner.acquireConnection(), current),
    beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) =>
      inner.beginTransaction(own(connection), settings),
    commitTransaction: (connection) => inner.commitTransaction(own(connection)),
    rollbackTransaction: (connection) => inner.rollbackTransaction(own(connection)),
    releaseConnection: (connection) => inner.releaseConnection(own(connection)),
    destroy: () => inner.destroy(),
  };
  if (inner.savepoint) {
    const savepoint = inner.savepoint.bind(inner);
    driver.savepoint = (connection, name, compile) => savepoint(own(connection), name, compile);
  }
  if (inner.rollbackToSavepoint) {
    const rollback = inner.rollbackToSavepoint.bind(inner);
    driver.rollbackToSavepoint = (connection, name, compile) =>
      rollback(own(connection), name, compile);
  }
  if (inner.releaseSavepoint) {
    const release = inner.releaseSavepoint.bind(inner);
    driver.releaseSavepoint = (connection, name, compile) =>
      release(own(connection), name, compile);
  }
  return driver;
}
