import { SqliteAdapter } from 'kysely';
import type { Dialect } from './connection.js';
import type { Db } from './schema.js';

/** Which database a connection (or transaction) talks to, for the few queries that differ. */
export const dialectOf = (db: Db): Dialect =>
  db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
