import { DAILY_EVENTS, SINCE_EVENTS, type DailyEvent } from '@tally/contract';
import { sql } from 'kysely';
import { preparedQuery, type Placeholders } from '../db/prepared.js';
import { HOURLY_COLUMNS } from './record-events.js';

/**
 * The reads of the statistics screen, prepared because the benchmark measured them
 * (docs/decisions/042-prepared-queries.md, 091-data-access-modules.md); the service calls them
 * like functions. The writes are in record-events.ts, beside the rules that make them.
 */

/** The user's running totals, one row per event type. */
export const totalsOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db.selectFrom('statistic_totals').select(['type', 'count']).where('user_id', '=', p('userId')),
);

/** Sums of the hourly roll-up from an hour on. */
export const hourlySumsSince = preparedQuery(
  (db, p: Placeholders<{ userId: number; fromHour: number }>) =>
    db
      .selectFrom('statistic_hours')
      .select((eb) =>
        SINCE_EVENTS.map((type) => eb.fn.sum<number | null>(HOURLY_COLUMNS[type]).as(type)),
      )
      .where('user_id', '=', p('userId'))
      .where('hour', '>=', p('fromHour')),
);

/** Sums of the hourly roll-up per day: day i is the hours from fromHours[i] up to toHours[i]. */
export const hourlySumsPerDay = preparedQuery(
  (db, p: Placeholders<{ userId: number; fromHours: number[]; toHours: number[] }>) => {
    const toHours = p('toHours');
    const days = p('fromHours').map(
      (from, i) =>
        sql`(cast(${i} as integer), cast(${from} as integer), cast(${toHours[i]} as integer))`,
    );
    const sums = DAILY_EVENTS.map(
      (type) => sql`sum(h.${sql.ref(HOURLY_COLUMNS[type])}) as ${sql.ref(type)}`,
    );
    return sql<Record<DailyEvent | 'day', number | null>>`
      with days (day, from_hour, to_hour) as (values ${sql.join(days)})
      select days.day as day, ${sql.join(sums)}
      from days inner join statistic_hours h
        on h.user_id = ${p('userId')} and h.hour >= days.from_hour and h.hour < days.to_hour
      group by days.day`;
  },
);
