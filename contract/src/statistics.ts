import { Type, type Static } from '@sinclair/typebox';
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
});
