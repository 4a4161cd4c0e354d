import { dialectOf } from '../db/dialect-of.js';
import { preparedQuery, type Placeholders } from '../db/prepared.js';
import type { Db } from '../db/schema.js';

/**
 * The group queries of the hot path, prepared because the benchmark measured them
 * (docs/decisions/042-prepared-queries.md, 091-data-access-modules.md); the service writes the
 * rest as plain Kysely.
 */

/** What a group answers with. */
export const COLUMNS = ['id', 'name', 'color', 'version'] as const;

/** The user's groups, newest first (the list). */
export const groupsOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db
    .selectFrom('todo_groups')
    .select(COLUMNS)
    .where('user_id', '=', p('userId'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc'),
);

/**
 * The user's group as it is now, for the write that follows: locked on PostgreSQL until the write
 * commits, as a todo's is (todos/queries.ts, forWrite); SQLite's write transaction already is.
 */
export function groupToWrite(trx: Db, userId: number, id: number) {
  const select = trx
    .selectFrom('todo_groups')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId);
  return (dialectOf(trx) === 'postgres' ? select.forUpdate() : select).executeTakeFirst();
}
