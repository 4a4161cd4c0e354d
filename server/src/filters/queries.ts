import { dialectOf } from '../db/dialect-of.js';
import type { Db } from '../db/schema.js';

/** What a saved filter answers with. */
export const COLUMNS = [
  'id',
  'name',
  'color',
  'query',
  'position',
  'version',
  'feed_secret',
  'feed_time_zone',
  'feed_created_at',
] as const;

/**
 * The user's saved filter as it is now, for the write that follows: locked on PostgreSQL until
 * the write commits, as a group's is (groups/queries.ts); SQLite's write transaction already is.
 */
export function filterToWrite(trx: Db, userId: number, id: number) {
  const select = trx
    .selectFrom('saved_filters')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId);
  return (dialectOf(trx) === 'postgres' ? select.forUpdate() : select).executeTakeFirst();
}
