import { Type, type Static } from '@sinclair/typebox';
import { LIMITS } from './constants.js';
import { DateStringSchema } from './common.js';

const count = Type.Integer({ minimum: 0 });

export const DailyStatisticSchema = Type.Object(
  {
    date: Type.String({ description: "YYYY-MM-DD in the caller's time zone" }),
    todosCreated: count,
    todosCompleted: count,
    groupsCreated: count,
    logins: count,
  },
  { additionalProperties: false },
);
export type DailyStatistic = Static<typeof DailyStatisticSchema>;

export const DailyStatisticListSchema = Type.Array(DailyStatisticSchema, {
  description: 'One record per day, newest first, zero-filled',
});

export const TotalStatisticsSchema = Type.Object(
  {
    todosCreated: count,
    todosCompleted: count,
    groupsCreated: count,
    logins: count,
    todosDeleted: count,
    googleAuths: count,
    registrations: count,
    tokensGenerated: count,
    refreshTokensCreated: count,
    todosUpdated: count,
    groupsUpdated: count,
    groupsDeleted: count,
  },
  { additionalProperties: false },
);
export type TotalStatistics = Static<typeof TotalStatisticsSchema>;
export type StatisticEvent = keyof TotalStatistics;
export const STATISTIC_EVENTS = Object.keys(
  TotalStatisticsSchema.properties,
) as readonly StatisticEvent[];

export const SinceStatisticsSchema = Type.Object(
  {
    todosCreated: count,
    todosCompleted: count,
    groupsCreated: count,
    logins: count,
    todosDeleted: count,
  },
  { additionalProperties: false },
);
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
