import { randomBytes } from 'node:crypto';
import {
  type CalendarFeed,
  FilterError,
  parseFilter,
  SAVED_FILTERS_MAX,
  type SavedFilter,
  type SavedFilterBody,
} from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database, Db, SavedFilterRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { badRequest } from '../shared/errors.js';
import { changedMeanwhile, ifMatchAllows, nextVersion } from '../shared/versions.js';
import { COLUMNS, filterToWrite } from './queries.js';

const toSavedFilter = (row: Pick<SavedFilterRow, (typeof COLUMNS)[number]>): SavedFilter => ({
  id: row.id,
  name: row.name,
  color: row.color,
  query: row.query,
  position: row.position,
  version: row.version,
  ...(row.feed_secret === null
    ? {}
    : {
        feed: {
          path: `/api/calendar/${row.feed_secret}.ics`,
          timeZone: row.feed_time_zone ?? 'UTC',
          createdAt: new Date(row.feed_created_at ?? 0).toISOString(),
        },
      }),
});

/**
 * A query is saved only when it can be read now, so a typo shows beside the field instead of
 * on every later visit. Its dates do not matter here: any day reads the same words.
 */
async function checkQuery(db: Db, userId: number, query: string) {
  const groups = await db
    .selectFrom('todo_groups')
    .select(['id', 'name'])
    .where('user_id', '=', userId)
    .execute();
  try {
    parseFilter(query, { today: '2026-01-01', time: '00:00', timeZone: 'UTC', groups });
  } catch (error) {
    if (error instanceof FilterError) throw badRequest(`query: ${error.message}`);
    throw error;
  }
}

/** The filter before a write to it; null when not the caller's, 412 when `ifMatch` is stale. */
async function currentFilter(trx: Db, userId: number, id: number, ifMatch: string | undefined) {
  const row = await filterToWrite(trx, userId, id);
  if (row && !ifMatchAllows(ifMatch, row.version)) {
    throw changedMeanwhile('filter', toSavedFilter(row));
  }
  return row ?? null;
}

export function createSavedFilterService(db: Kysely<Database>, clock: Clock) {
  return {
    async list(userId: number): Promise<SavedFilter[]> {
      const rows = await db
        .selectFrom('saved_filters')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('position')
        .orderBy('id')
        .execute();
      return rows.map(toSavedFilter);
    },

    async create(userId: number, input: SavedFilterBody): Promise<SavedFilter> {
      await checkQuery(db, userId, input.query);
      return db.transaction().execute(async (trx) => {
        const { count, last } = await trx
          .selectFrom('saved_filters')
          .select((eb) => [
            eb.fn.countAll<number | string>().as('count'),
            eb.fn.max('position').as('last'),
          ])
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        if (Number(count) >= SAVED_FILTERS_MAX) {
          throw badRequest(`You can keep at most ${SAVED_FILTERS_MAX} saved filters`);
        }
        const row = await trx
          .insertInto('saved_filters')
          .values({
            user_id: userId,
            name: input.name.trim(),
            color: input.color,
            query: input.query,
            position: input.position ?? (last === null ? 0 : Number(last) + 1),
            created_at: clock(),
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toSavedFilter(row);
      });
    },

    /** Null when the filter does not exist or is not the caller's. */
    async update(
      userId: number,
      id: number,
      input: SavedFilterBody,
      ifMatch?: string,
    ): Promise<SavedFilter | null> {
      return db.transaction().execute(async (trx) => {
        const current = await currentFilter(trx, userId, id, ifMatch);
        if (!current) return null;
        await checkQuery(trx, userId, input.query);
        const row = await trx
          .updateTable('saved_filters')
          .set({
            name: input.name.trim(),
            color: input.color,
            query: input.query,
            position: input.position ?? current.position,
            version: nextVersion,
          })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returning(COLUMNS)
          .executeTakeFirst();
        return row ? toSavedFilter(row) : null;
      });
    },

    /** A new secret for the filter's own feed (an older URL stops); null when not the caller's. */
    async makeFeed(userId: number, id: number, timeZone: string): Promise<CalendarFeed | null> {
      const secret = randomBytes(32).toString('base64url');
      const now = clock();
      const row = await db
        .updateTable('saved_filters')
        .set({
          feed_secret: secret,
          feed_time_zone: timeZone,
          feed_created_at: now,
          feed_content_hash: null,
          feed_changed_at: null,
        })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning('id')
        .executeTakeFirst();
      return row
        ? {
            path: `/api/calendar/${secret}.ics`,
            timeZone,
            createdAt: new Date(now).toISOString(),
          }
        : null;
    },

    /** False when the filter is not the caller's. */
    async removeFeed(userId: number, id: number): Promise<boolean> {
      const result = await db
        .updateTable('saved_filters')
        .set({ feed_secret: null, feed_content_hash: null, feed_changed_at: null })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async remove(userId: number, id: number, ifMatch?: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        if (!(await currentFilter(trx, userId, id, ifMatch))) return false;
        const result = await trx
          .deleteFrom('saved_filters')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
  };
}
