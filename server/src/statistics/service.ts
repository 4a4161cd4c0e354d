import type {
  DailyStatistic,
  SinceStatistics,
  StatisticEvent,
  TotalStatistics,
} from '@tally/contract';
import { LIMITS, STATISTIC_EVENTS } from '@tally/contract';
import { sql, type Kysely } from 'kysely';
import { compiledShape, precompile } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { HOUR_MS, HOURLY_COLUMNS } from '../shared/activity-log.js';
import { badRequest } from '../shared/errors.js';
import { addDays, dateInZone, daysBetween, parseDate, startOfDay } from './calendar.js';

const DAILY_EVENTS = ['todosCreated', 'todosCompleted', 'groupsCreated', 'logins'] as const;
const SINCE_EVENTS = [
  'todosCreated',
  'todosCompleted',
  'groupsCreated',
  'logins',
  'todosDeleted',
] as const;

type DailyEvent = (typeof DAILY_EVENTS)[number];
type SinceEvent = (typeof SINCE_EVENTS)[number];

/** Whether every instant falls on a UTC hour, so the hourly roll-up answers exactly. */
const onHours = (...instants: number[]) => instants.every((instant) => instant % HOUR_MS === 0);

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

/** Sums of the hourly roll-up from an hour on (a query compiled once, see db/prepared.ts). */
const sumsSinceHour = compiledShape((db: Kysely<Database>, userId: number, fromHour: number) =>
  db
    .selectFrom('statistic_hours')
    .select((eb) =>
      SINCE_EVENTS.map((type) => eb.fn.sum<number | null>(HOURLY_COLUMNS[type]).as(type)),
    )
    .where('user_id', '=', userId)
    .where('hour', '>=', fromHour),
);

/**
 * Sums of the hourly roll-up per day for `days` days, each given as its [from, to) hours. The SQL
 * depends on the number of days, so a compiled shape serves one number of days. Only the spans
 * that recur (the screen's 7, 14 and 30 days, and short ranges) are kept: all 366 would hold
 * about 45 MB, and any user could make the server build them.
 */
const KEPT_DAILY_SHAPES = 31;
const dailySumShapes = new Map<number, ReturnType<typeof dailySumsShape>>();
function dailySumsShape(days: number) {
  return compiledShape((db: Kysely<Database>, userId: number, ...hours: number[]) => {
    const bounds = Array.from(
      { length: days },
      (_, i) =>
        sql`(cast(${i} as integer), cast(${hours[2 * i]} as integer), cast(${hours[2 * i + 1]} as integer))`,
    );
    const sums = DAILY_EVENTS.map(
      (type) => sql`sum(h.${sql.ref(HOURLY_COLUMNS[type])}) as ${sql.ref(type)}`,
    );
    const query = sql<Record<DailyEvent | 'day', number | null>>`
      with days (day, from_hour, to_hour) as (values ${sql.join(bounds)})
      select days.day as day, ${sql.join(sums)}
      from days inner join statistic_hours h
        on h.user_id = ${userId} and h.hour >= days.from_hour and h.hour < days.to_hour
      group by days.day`;
    return { compile: () => query.compile(db) };
  });
}

function requireDate(value: string, field: string): string {
  if (!parseDate(value)) throw badRequest(`${field} must be a real calendar date (YYYY-MM-DD)`);
  return value;
}

export function createStatisticsService(db: Kysely<Database>, clock: Clock) {
  async function countByType(
    userId: number,
    types: readonly StatisticEvent[],
    from?: number,
  ): Promise<Map<string, number>> {
    let query = db
      .selectFrom('statistic_events')
      .select((eb) => ['type', eb.fn.countAll<number>().as('count')])
      .where('user_id', '=', userId)
      .where('type', 'in', types)
      .groupBy('type');
    if (from !== undefined) query = query.where('occurred_at', '>=', from);
    const rows = await query.execute();
    return new Map(rows.map((row) => [row.type, Number(row.count)]));
  }

  /**
   * One record per day from `newest` back `days` days, newest first, zero-filled.
   * Events are bucketed by binary search over the days' start instants in the zone.
   */
  async function daily(userId: number, newest: string, days: number, zone: string) {
    const dates = Array.from({ length: days }, (_, i) => addDays(newest, -i));
    const starts = dates.map((date) => startOfDay(date, zone));
    const end = startOfDay(addDays(newest, 1), zone);
    const records: DailyStatistic[] = dates.map((date) => ({ date, ...zeroes(DAILY_EVENTS) }));

    if (onHours(end, ...starts)) {
      // Each day is a range of whole UTC hours: sum the hourly roll-up per day, in the database.
      let shape = dailySumShapes.get(days);
      if (!shape) {
        shape = dailySumsShape(days);
        if (days <= KEPT_DAILY_SHAPES) dailySumShapes.set(days, shape);
      }
      const hours = starts.flatMap((start, i) => [
        start / HOUR_MS,
        (i === 0 ? end : (starts[i - 1] as number)) / HOUR_MS,
      ]);
      const { rows } = await shape(db, userId, ...hours);
      for (const row of rows) {
        const record = records[Number(row.day)] as DailyStatistic;
        for (const type of DAILY_EVENTS) record[type] = Number(row[type] ?? 0);
      }
      return records;
    }

    // A zone whose midnight is not on a UTC hour: bucket the events themselves.
    const events = await db
      .selectFrom('statistic_events')
      .select(['type', 'occurred_at'])
      .where('user_id', '=', userId)
      .where('occurred_at', '>=', starts[starts.length - 1] as number)
      .where('occurred_at', '<', end)
      .where('type', 'in', DAILY_EVENTS)
      .execute();

    for (const event of events) {
      // starts is descending: find the first day whose start is <= the event.
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const mid = (low + high) >> 1;
        if ((starts[mid] as number) <= event.occurred_at) high = mid;
        else low = mid + 1;
      }
      const record = records[low] as DailyStatistic;
      record[event.type as DailyEvent] += 1;
    }
    return records;
  }

  const totalsOf = precompile(
    db,
    db.selectFrom('statistic_totals').select(['type', 'count']).where('user_id', '=', 0),
  );

  return {
    /** From the per-user roll-up: one row per event type, whatever the number of events. */
    async total(userId: number): Promise<TotalStatistics> {
      const rows = await totalsOf(userId);
      const totals = zeroes(STATISTIC_EVENTS);
      for (const row of rows) {
        if (row.type in totals) totals[row.type as StatisticEvent] = Number(row.count);
      }
      return totals;
    },

    async recent(userId: number, days: number, zone: string): Promise<DailyStatistic[]> {
      return daily(userId, dateInZone(clock(), zone), days, zone);
    },

    async range(
      userId: number,
      startDate: string,
      endDate: string,
      zone: string,
    ): Promise<DailyStatistic[]> {
      requireDate(startDate, 'startDate');
      requireDate(endDate, 'endDate');
      const span = daysBetween(startDate, endDate) + 1;
      if (span < 1) throw badRequest('startDate must not be after endDate');
      if (span > LIMITS.rangeDaysMax) {
        throw badRequest(
          `The range from startDate to endDate may span at most ${LIMITS.rangeDaysMax} days`,
        );
      }
      return daily(userId, endDate, span, zone);
    },

    async since(userId: number, since: string, zone: string): Promise<SinceStatistics> {
      requireDate(since, 'since');
      const from = startOfDay(since, zone);
      const result = zeroes(SINCE_EVENTS);
      if (onHours(from)) {
        const {
          rows: [row],
        } = await sumsSinceHour(db, userId, from / HOUR_MS);
        for (const type of SINCE_EVENTS) result[type] = Number(row?.[type] ?? 0);
        return result;
      }
      // A zone whose midnight is not on a UTC hour (e.g. Asia/Kolkata): count the events.
      const counts = await countByType(userId, SINCE_EVENTS, from);
      for (const [type, count] of counts) result[type as SinceEvent] = count;
      return result;
    },
  };
}
