import type { StatisticEvent } from '@tally/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Appends statistics events. Callers pass the transaction of the change being counted, so an
 * event exists exactly when its change does (DECISIONS.md, filled gaps).
 */
export async function recordEvents(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  types: StatisticEvent[],
  at: number,
): Promise<void> {
  if (types.length === 0) return;
  await db
    .insertInto('statistic_events')
    .values(types.map((type) => ({ user_id: userId, type, occurred_at: at })))
    .execute();
}
