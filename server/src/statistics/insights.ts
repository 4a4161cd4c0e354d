import type { Insights } from '@tally/contract';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { addDays, weekdayOf } from '@tally/contract/dates';
import {
  dateInZone,
  daysBetween,
  endOfDay,
  localDateTime,
  startOfDay,
} from '../shared/calendar.js';
import { HOUR_MS } from './record-events.js';
import { isoTime } from '../shared/iso-time.js';

/**
 * The insights (docs/decisions/047-insights.md), in the user's zone. Counts per day and hour come
 * from the hourly roll-up (at most one row per hour with a completion), so their cost depends on
 * the range, not on how many events a user has; lead time, on-time rate and groups come from the
 * completions of the range, aggregated in the database; tags from those completions' todos.
 */

const QUARTER_HOUR_MS = 15 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Monday = 0 … Sunday = 6. */

/** Completions counted from an instant on (a UTC hour, or a quarter hour in other zones). */
interface Bucket {
  at: number;
  count: number;
}

export function createInsights(db: Kysely<Database>, clock: () => number) {
  /** Completions per bucket from `from` up to `to`. */
  async function buckets(userId: number, from: number, to: number): Promise<Bucket[]> {
    if (from % HOUR_MS === 0 && to % HOUR_MS === 0) {
      // One text of `hour:count` pairs instead of a row per hour: turning up to 8,760 rows into
      // objects cost three times the scan itself (docs/decisions/063-session-lookup-named-statements-insights-cost.md).
      const [row] = await db
        .selectFrom('statistic_hours')
        .select(
          sql<
            string | null
          >`string_agg(cast(hour as text) || ':' || cast(todos_completed as text), ',')`.as(
            'pairs',
          ),
        )
        .where('user_id', '=', userId)
        .where('hour', '>=', from / HOUR_MS)
        .where('hour', '<', to / HOUR_MS)
        .where('todos_completed', '>', 0)
        .execute();
      const buckets: Bucket[] = [];
      if (!row?.pairs) return buckets;
      for (const pair of row.pairs.split(',')) {
        const colon = pair.indexOf(':');
        buckets.push({
          at: Number(pair.slice(0, colon)) * HOUR_MS,
          count: Number(pair.slice(colon + 1)),
        });
      }
      return buckets;
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

  /**
   * Lead times, on-time counts and groups of the range's completions, from the covering index:
   * the counts per group aggregated first and joined to the few groups after (not a join per
   * completion); the lead times as one text, sorted here (a sort in the database would scan
   * twice, and a row per completion cost more than the scan, decision 063).
   */
  async function completions(userId: number, from: number, to: number) {
    const inRange = db
      .selectFrom('todo_completions')
      .where('user_id', '=', userId)
      .where('completed_at', '>=', from)
      .where('completed_at', '<', to);
    const [groups, [leads], tags] = await Promise.all([
      db
        .selectFrom(
          inRange
            .select((eb) => [
              'group_id',
              eb.fn.countAll<number>().as('completed'),
              sql<number>`sum(case when on_time = 1 then 1 else 0 end)`.as('on_time'),
              sql<number>`sum(case when on_time = 0 then 1 else 0 end)`.as('late'),
            ])
            .groupBy('group_id')
            .as('c'),
        )
        .leftJoin('todo_groups as g', 'g.id', 'c.group_id')
        .select(['g.id', 'g.name', 'g.color', 'c.completed', 'c.on_time', 'c.late'])
        .execute(),
      inRange
        .select(
          sql<string | null>`string_agg(cast(completed_at - created_at as text), ',')`.as('leads'),
        )
        .execute(),
      // By the completed todo's tags as they are now (a completion keeps no tags of its own).
      db
        .selectFrom('todo_completions as c')
        .innerJoin('todo_tags as tt', 'tt.todo_id', 'c.todo_id')
        .innerJoin('tags as t', 't.id', 'tt.tag_id')
        .select((eb) => ['t.name', 't.color', eb.fn.countAll<number>().as('completed')])
        .where('c.user_id', '=', userId)
        .where('c.completed_at', '>=', from)
        .where('c.completed_at', '<', to)
        .groupBy(['t.id', 't.name', 't.color'])
        .execute(),
    ]);

    const texts = leads?.leads ? leads.leads.split(',') : [];
    const sorted = new Float64Array(texts.length);
    for (let i = 0; i < texts.length; i++) sorted[i] = Number(texts[i]);
    sorted.sort();
    // Nearest rank, the lower one: an observed lead time, never an average of two.
    const at = (fraction: number) =>
      Math.round(((sorted[Math.floor(fraction * (sorted.length - 1))] as number) / HOUR_MS) * 10) /
      10;
    const leadTime =
      sorted.length === 0
        ? { medianHours: null, p75Hours: null, sample: 0 }
        : { medianHours: at(0.5), p75Hours: at(0.75), sample: sorted.length };

    let kept = 0;
    let late = 0;
    for (const group of groups) {
      kept += Number(group.on_time ?? 0);
      late += Number(group.late ?? 0);
    }
    const onTime = { onTime: kept, late, rate: kept + late === 0 ? null : kept / (kept + late) };
    const byGroup = groups
      .map((row) => ({
        groupId: row.id,
        name: row.name ?? 'No Group',
        color: row.color,
        completed: Number(row.completed),
      }))
      .sort((a, b) => b.completed - a.completed || a.name.localeCompare(b.name));
    const byTag = tags
      .map((row) => ({ name: row.name, color: row.color, completed: Number(row.completed) }))
      .sort((a, b) => b.completed - a.completed || a.name.localeCompare(b.name));
    return { leadTime, onTime, byGroup, byTag };
  }

  return async function insights(userId: number, weeks: number, zone: string): Promise<Insights> {
    const now = clock();
    const today = dateInZone(now, zone);
    const thisMonday = addDays(today, -weekdayOf(today));
    const lastMonday = addDays(thisMonday, -7);
    const from = addDays(thisMonday, -7 * (weeks - 1));
    // Last week is counted even when the range is this week alone.
    const first = from < lastMonday ? from : lastMonday;
    // The days by arithmetic on UTC midnights: addDays parses and formats a date per call.
    const firstMidnight = Date.parse(`${first}T00:00:00Z`);
    const dates = Array.from({ length: daysBetween(first, today) + 1 }, (_, i) =>
      isoTime(firstMidnight + i * DAY_MS).slice(0, 10),
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
    const fromWeekday = weekdayOf(from);
    heatmap.forEach((day, i) => {
      const weekday = (fromWeekday + i) % 7;
      byWeekday[weekday] = (byWeekday[weekday] as number) + day.completed;
    });

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
    const { leadTime, onTime, byGroup, byTag } = await completions(userId, rangeFrom, end);
    return {
      from,
      to: today,
      streak: { current, longest, lastDay },
      heatmap,
      byWeekday,
      byHour,
      leadTime,
      onTime,
      byGroup,
      byTag,
      week: { thisWeek: sumFrom(thisMonday, 7), lastWeek: sumFrom(lastMonday, 7) },
    };
  };
}
