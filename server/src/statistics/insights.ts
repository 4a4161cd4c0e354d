import type { Insights } from '@tally/contract';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import {
  addDays,
  dateInZone,
  daysBetween,
  endOfDay,
  localDateTime,
  startOfDay,
} from '../shared/calendar.js';
import { HOUR_MS } from './record-events.js';

/**
 * The insights (docs/decisions/047-insights.md), in the user's zone. Counts per day and hour come
 * from the hourly roll-up (at most one row per hour with a completion), so their cost depends on
 * the range, not on how many events a user has; lead time, on-time rate and groups come from the
 * completions of the range, aggregated in the database.
 */

const QUARTER_HOUR_MS = 15 * 60 * 1000;

/** Monday = 0 … Sunday = 6. */
const weekdayOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;

/** Completions counted from an instant on (a UTC hour, or a quarter hour in other zones). */
interface Bucket {
  at: number;
  count: number;
}

export function createInsights(db: Kysely<Database>, clock: () => number) {
  /** Completions per bucket from `from` up to `to`. */
  async function buckets(userId: number, from: number, to: number): Promise<Bucket[]> {
    if (from % HOUR_MS === 0 && to % HOUR_MS === 0) {
      const rows = await db
        .selectFrom('statistic_hours')
        .select(['hour', 'todos_completed'])
        .where('user_id', '=', userId)
        .where('hour', '>=', from / HOUR_MS)
        .where('hour', '<', to / HOUR_MS)
        .where('todos_completed', '>', 0)
        .execute();
      return rows.map((row) => ({
        at: Number(row.hour) * HOUR_MS,
        count: Number(row.todos_completed),
      }));
    }
    // A zone whose midnight is not on a UTC hour: every offset is a whole quarter hour.
    const rows = await db
      .selectFrom('statistic_events')
      .select((eb) => [
        sql<number>`occurred_at / ${sql.lit(QUARTER_HOUR_MS)}`.as('quarter'),
        eb.fn.countAll<number>().as('count'),
      ])
      .where('user_id', '=', userId)
      .where('type', '=', 'todosCompleted')
      .where('occurred_at', '>=', from)
      .where('occurred_at', '<', to)
      .groupBy(sql`occurred_at / ${sql.lit(QUARTER_HOUR_MS)}`)
      .execute();
    return rows.map((row) => ({
      at: Math.floor(Number(row.quarter)) * QUARTER_HOUR_MS,
      count: Number(row.count),
    }));
  }

  /** Median and 75th percentile of (completion - creation), in hours, exactly, in the database. */
  async function leadTime(userId: number, from: number, to: number) {
    const inRange = db
      .selectFrom('todo_completions')
      .where('user_id', '=', userId)
      .where('completed_at', '>=', from)
      .where('completed_at', '<', to);
    const { sample } = await inRange
      .select((eb) => eb.fn.countAll<number>().as('sample'))
      .executeTakeFirstOrThrow();
    const n = Number(sample);
    if (n === 0) return { medianHours: null, p75Hours: null, sample: 0 };
    const at = async (fraction: number) => {
      const row = await inRange
        .select(sql<number>`completed_at - created_at`.as('lead'))
        .orderBy(sql`completed_at - created_at`)
        .limit(1)
        .offset(Math.floor(fraction * (n - 1)))
        .executeTakeFirstOrThrow();
      return Math.round((Number(row.lead) / HOUR_MS) * 10) / 10;
    };
    return { medianHours: await at(0.5), p75Hours: await at(0.75), sample: n };
  }

  async function onTime(userId: number, from: number, to: number) {
    const row = await db
      .selectFrom('todo_completions')
      .select([
        sql<number>`sum(case when on_time = 1 then 1 else 0 end)`.as('on_time'),
        sql<number>`sum(case when on_time = 0 then 1 else 0 end)`.as('late'),
      ])
      .where('user_id', '=', userId)
      .where('completed_at', '>=', from)
      .where('completed_at', '<', to)
      .executeTakeFirstOrThrow();
    const kept = Number(row.on_time ?? 0);
    const late = Number(row.late ?? 0);
    return { onTime: kept, late, rate: kept + late === 0 ? null : kept / (kept + late) };
  }

  async function byGroup(userId: number, from: number, to: number) {
    const rows = await db
      .selectFrom('todo_completions as c')
      .leftJoin('todo_groups as g', 'g.id', 'c.group_id')
      .select((eb) => ['g.id', 'g.name', 'g.color', eb.fn.countAll<number>().as('completed')])
      .where('c.user_id', '=', userId)
      .where('c.completed_at', '>=', from)
      .where('c.completed_at', '<', to)
      .groupBy(['g.id', 'g.name', 'g.color'])
      .execute();
    return rows
      .map((row) => ({
        groupId: row.id,
        name: row.name ?? 'No Group',
        color: row.color,
        completed: Number(row.completed),
      }))
      .sort((a, b) => b.completed - a.completed || a.name.localeCompare(b.name));
  }

  return async function insights(userId: number, weeks: number, zone: string): Promise<Insights> {
    const now = clock();
    const today = dateInZone(now, zone);
    const thisMonday = addDays(today, -weekdayOf(today));
    const lastMonday = addDays(thisMonday, -7);
    const from = addDays(thisMonday, -7 * (weeks - 1));
    // Last week is counted even when the range is this week alone.
    const first = from < lastMonday ? from : lastMonday;
    const dates = Array.from({ length: daysBetween(first, today) + 1 }, (_, i) =>
      addDays(first, i),
    );
    const starts = dates.map((date) => startOfDay(date, zone));
    const end = endOfDay(today, zone);

    const perDay = new Array<number>(dates.length).fill(0);
    const byHour = new Array<number>(24).fill(0);
    const fromIndex = daysBetween(first, from);
    for (const bucket of await buckets(userId, starts[0] as number, end)) {
      // starts is ascending: the last day that starts at or before the bucket.
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if ((starts[mid] as number) <= bucket.at) low = mid;
        else high = mid - 1;
      }
      perDay[low] = (perDay[low] as number) + bucket.count;
      if (low < fromIndex) continue;
      const dayEnd = low + 1 < starts.length ? (starts[low + 1] as number) : end;
      const dayStart = starts[low] as number;
      // A 24-hour day counts hours from its start; a day with a clock change asks the zone.
      const hour =
        dayEnd - dayStart === 24 * HOUR_MS
          ? Math.floor((bucket.at - dayStart) / HOUR_MS)
          : Number(localDateTime(bucket.at, zone).time.slice(0, 2));
      byHour[hour] = (byHour[hour] as number) + bucket.count;
    }

    const heatmap = dates.slice(fromIndex).map((date, i) => ({
      date,
      completed: perDay[fromIndex + i] as number,
    }));
    const byWeekday = new Array<number>(7).fill(0);
    for (const day of heatmap) {
      const weekday = weekdayOf(day.date);
      byWeekday[weekday] = (byWeekday[weekday] as number) + day.completed;
    }

    let longest = 0;
    let run = 0;
    let lastDay: string | null = null;
    for (const day of heatmap) {
      run = day.completed > 0 ? run + 1 : 0;
      longest = Math.max(longest, run);
      if (day.completed > 0) lastDay = day.date;
    }
    // Today still open does not break the streak: it runs to yesterday until today ends.
    let current = 0;
    for (let i = heatmap.length - 1; i >= 0; i--) {
      const day = heatmap[i] as { completed: number };
      if (day.completed > 0) current += 1;
      else if (i !== heatmap.length - 1 || current > 0) break;
    }

    const sumFrom = (date: string, days: number) => {
      const index = daysBetween(first, date);
      return perDay.slice(index, index + days).reduce((sum, n) => sum + n, 0);
    };

    const rangeFrom = starts[fromIndex] as number;
    const [lead, onTimeCounts, groups] = await Promise.all([
      leadTime(userId, rangeFrom, end),
      onTime(userId, rangeFrom, end),
      byGroup(userId, rangeFrom, end),
    ]);
    return {
      from,
      to: today,
      streak: { current, longest, lastDay },
      heatmap,
      byWeekday,
      byHour,
      leadTime: lead,
      onTime: onTimeCounts,
      byGroup: groups,
      week: { thisWeek: sumFrom(thisMonday, 7), lastWeek: sumFrom(lastMonday, 7) },
    };
  };
}
