import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './nullable.js';
import {
  DAILY_EVENTS,
  LIMITS,
  SINCE_EVENTS,
  STATISTIC_EVENTS,
  TIME_ZONE_HEADER,
  type StatisticEvent,
} from './constants.js';
import { DateStringSchema, ErrorSchema } from './common.js';
import { defineEndpoints } from './endpoint.js';
import { routes } from './routes.js';

const count = Type.Integer({ minimum: 0 });

/** One count per event, in the order of the list (constants.ts holds the lists). */
const counts = <E extends StatisticEvent>(events: readonly E[]) =>
  Object.fromEntries(events.map((event) => [event, count])) as Record<E, typeof count>;

export const DailyStatisticSchema = Type.Object(
  {
    date: Type.String({ description: "YYYY-MM-DD in the caller's time zone" }),
    ...counts(DAILY_EVENTS),
  },
  { additionalProperties: false },
);
export type DailyStatistic = Static<typeof DailyStatisticSchema>;

export const DailyStatisticListSchema = Type.Array(DailyStatisticSchema, {
  description: 'One record per day, newest first, zero-filled',
});

export const TotalStatisticsSchema = Type.Object(counts(STATISTIC_EVENTS), {
  additionalProperties: false,
});
export type TotalStatistics = Static<typeof TotalStatisticsSchema>;

export const SinceStatisticsSchema = Type.Object(counts(SINCE_EVENTS), {
  additionalProperties: false,
});
export type SinceStatistics = Static<typeof SinceStatisticsSchema>;

export const RecentQuerySchema = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      maximum: LIMITS.recentDaysMax,
      default: LIMITS.recentDaysDefault,
    }),
  },
  { additionalProperties: false },
);
export type RecentQuery = Static<typeof RecentQuerySchema>;

export const RangeQuerySchema = Type.Object(
  { startDate: DateStringSchema, endDate: DateStringSchema },
  { additionalProperties: false },
);
export type RangeQuery = Static<typeof RangeQuerySchema>;

export const SinceQuerySchema = Type.Object(
  { since: DateStringSchema },
  { additionalProperties: false },
);
export type SinceQuery = Static<typeof SinceQuerySchema>;

export const INSIGHTS_WEEKS_MAX = 104;

export const InsightsQuerySchema = Type.Object(
  {
    weeks: Type.Integer({
      minimum: 1,
      maximum: INSIGHTS_WEEKS_MAX,
      default: 52,
      description: 'Weeks back from this one (weeks start on Monday)',
    }),
  },
  { additionalProperties: false },
);
export type InsightsQuery = Static<typeof InsightsQuerySchema>;

const nullableNumber = Nullable(Type.Number());
const dayDate = Type.String({ description: "YYYY-MM-DD in the caller's time zone" });

/** What a user's completions say about their habits (docs/product.md, Insights). */
export const InsightsSchema = Type.Object(
  {
    from: dayDate,
    to: dayDate,
    streak: Type.Object(
      {
        current: count,
        longest: count,
        lastDay: Nullable(Type.String()),
      },
      {
        additionalProperties: false,
        description:
          'Days in a row with at least one completion: the run that reaches today (or yesterday, ' +
          'while today is still open), the longest in the range, and the last such day',
      },
    ),
    heatmap: Type.Array(
      Type.Object({ date: dayDate, completed: count }, { additionalProperties: false }),
      { description: 'Every day of the range, oldest first' },
    ),
    byWeekday: Type.Array(count, {
      minItems: 7,
      maxItems: 7,
      description: 'Completions per day of the week, Monday first',
    }),
    byHour: Type.Array(count, {
      minItems: 24,
      maxItems: 24,
      description: 'Completions per hour of the day (local time)',
    }),
    leadTime: Type.Object(
      { medianHours: nullableNumber, p75Hours: nullableNumber, sample: count },
      {
        additionalProperties: false,
        description: 'Hours from creation to completion of the completions in the range',
      },
    ),
    onTime: Type.Object(
      { onTime: count, late: count, rate: nullableNumber },
      {
        additionalProperties: false,
        description: 'Completions of todos with a due date: by it, after it, and the share on time',
      },
    ),
    byGroup: Type.Array(
      Type.Object(
        {
          groupId: Nullable(Type.Integer()),
          name: Type.String(),
          color: Nullable(Type.String()),
          completed: count,
        },
        { additionalProperties: false },
      ),
      { description: 'Completions per group (null: no group), most first' },
    ),
    byTag: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          color: Nullable(Type.String()),
          completed: count,
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Completions per tag of the completed todo (its tags now; a todo with two tags counts ' +
          'for both, one without none), most first',
      },
    ),
    week: Type.Object(
      { thisWeek: count, lastWeek: count },
      { additionalProperties: false, description: 'This week so far against all of last week' },
    ),
  },
  { additionalProperties: false },
);
export type Insights = Static<typeof InsightsSchema>;

const zoneNote = ` Days follow the IANA time zone in the ${TIME_ZONE_HEADER} header (UTC when absent or unknown).`;

export const statisticsApi = defineEndpoints('statistics', routes.statistics, {
  total: {
    summary: 'All-time counts of every event',
    responses: { 200: TotalStatisticsSchema, 401: ErrorSchema },
  },
  recent: {
    summary: 'Exactly `days` daily records ending today, newest first, zero-filled.' + zoneNote,
    query: RecentQuerySchema,
    responses: { 200: DailyStatisticListSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  range: {
    summary: 'Daily records from startDate to endDate inclusive, newest first.' + zoneNote,
    query: RangeQuerySchema,
    responses: { 200: DailyStatisticListSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  since: {
    summary: 'Counts from the start of the given day until now.' + zoneNote,
    query: SinceQuerySchema,
    responses: { 200: SinceStatisticsSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  insights: {
    summary:
      'Streaks, a heatmap, rhythms, lead time, on-time rate, groups and tags of the last `weeks` weeks.' +
      zoneNote,
    query: InsightsQuerySchema,
    responses: { 200: InsightsSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
});
