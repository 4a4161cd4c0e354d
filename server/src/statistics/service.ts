import type {
  DailyEvent,
  DailyStatistic,
  SinceEvent,
  SinceStatistics,
  StatisticEvent,
  TotalStatistics,
} from '@tally/contract';
import { DAILY_EVENTS, LIMITS, SINCE_EVENTS, STATISTIC_EVENTS } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { badRequest } from '../shared/errors.js';
import { addDays, parseDate } from '@tally/contract/dates';
import { dateInZone, daysBetween, endOfDay, startOfDay } from '../shared/calendar.js';
import { hourlySumsPerDay, hourlySumsSince, totalsOfUser } from './queries.js';
import { HOUR_MS } from './record-events.js';

/** Whether every instant falls on a UTC hour, so the hourly roll-up answers exactly. */
const onHours = (...instants: number[]) => instants.every((instant) => instant % HOUR_MS === 0);

function zeroes<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

function requireDate(value: string, field: string): string {
  if (!parseDate(value)) throw badRequest(`${field} must be a real calendar date (YYYY-MM-DD)`);
  return value;
}

export function createStatisticsService(db: Kysely<Database>, clock: Clock) {
  /** Events of each type from an instant on, counted in the event log. */
  async function countSince(
    userId: number,
    types: readonly StatisticEvent[],
    from: number,
  ): Promise<Map<string, number>> {
    const rows = await db
      .selectFrom('statistic_events')
      .select((eb) => ['type', eb.fn.countAll<number>().as('count')])
      .where('user_id', '=', userId)
      .where('type', 'in', types)
      .where('occurred_at', '>=', from)
      .groupBy('type')
      .execute();
    return new Map(rows.map((row) => [row.type, Number(row.count)]));
  }

  /**
   * One record per day from `newest` back `days` days, newest first, zero-filled.
   * Events are bucketed by binary search over the days' start instants in the zone.
   */
  async function daily(userId: number, newest: string, days: number, zone: string) {
    const dates = Array.from({ length: days }, (_, i) => addDays(newest, -i));
    const starts = dates.map((date) => startOfDay(date, zone));
    const end = endOfDay(newest, zone);
    const records: DailyStatistic[] = dates.map((date) => ({ date, ...zeroes(DAILY_EVENTS) }));

    if (onHours(end, ...starts)) {
      // Each day is a range of whole UTC hours: sum the hourly roll-up per day, in the database.
      const rows = await hourlySumsPerDay(db, {
        userId,
        fromHours: starts.map((start) => start / HOUR_MS),
        toHours: starts.map((_, i) => (i === 0 ? end : (starts[i - 1] as number)) / HOUR_MS),
      });
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

  return {
    /** From the per-user roll-up: one row per event type, whatever the number of events. */
    async total(userId: number): Promise<TotalStatistics> {
      const rows = await totalsOfUser(db, { userId });
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
        const [row] = await hourlySumsSince(db, { userId, fromHour: from / HOUR_MS });
        for (const type of SINCE_EVENTS) result[type] = Number(row?.[type] ?? 0);
        return result;
      }
      // A zone whose midnight is not on a UTC hour (e.g. Asia/Kolkata): count the events.
      const counts = await countSince(userId, SINCE_EVENTS, from);
      for (const [type, count] of counts) result[type as SinceEvent] = count;
      return result;
    },
  };
}
