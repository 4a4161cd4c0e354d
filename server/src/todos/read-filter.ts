import { FilterError, parseFilter, type Filter } from '@tally/contract/filter-query';
import { userPreferences } from '../account/preferences.js';
import type { Db } from '../db/schema.js';
import { localDateTime } from '../shared/calendar.js';
import { badRequest } from '../shared/errors.js';

/**
 * A filter query read for one user: their day and clock time in their account's zone (UTC until
 * the web app sets it from the browser), and their groups, which `#Name` names. A query it cannot
 * read is a 400 naming `filter` with the reader's sentence.
 */
export async function readFilter(
  db: Db,
  userId: number,
  query: string,
  now: number,
): Promise<Filter> {
  const zone = (await userPreferences(db, userId)).timeZone;
  const groups = await db
    .selectFrom('todo_groups')
    .select(['id', 'name'])
    .where('user_id', '=', userId)
    .execute();
  const { date, time } = localDateTime(now, zone);
  try {
    return parseFilter(query, { today: date, time, timeZone: zone, groups });
  } catch (error) {
    if (error instanceof FilterError) throw badRequest(`filter: ${error.message}`);
    throw error;
  }
}
