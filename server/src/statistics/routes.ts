import {
  DailyStatisticListSchema,
  ErrorSchema,
  RangeQuerySchema,
  RecentQuerySchema,
  SinceQuerySchema,
  SinceStatisticsSchema,
  TIME_ZONE_HEADER,
  TotalStatisticsSchema,
} from '@tally/contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { compressLargeAnswers } from '../plugins/compression.js';
import type { Clock } from '../shared/clock.js';
import { resolveTimeZone } from './calendar.js';
import { createStatisticsService } from './service.js';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const zoneOf = (request: FastifyRequest) => {
  const header = request.headers[TIME_ZONE_HEADER];
  return resolveTimeZone(Array.isArray(header) ? header[0] : header);
};
const zoneNote = ` Days follow the IANA time zone in the ${TIME_ZONE_HEADER} header (UTC when absent or unknown).`;

export const statisticsRoutes: FastifyPluginAsync<{ clock: Clock }> = async (
  fastify,
  { clock },
) => {
  await compressLargeAnswers(fastify);
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const statistics = createStatisticsService(app.db, clock);
  const tags = ['statistics'];

  app.get(
    '/total',
    {
      schema: {
        tags,
        summary: 'All-time counts of every event',
        response: { 200: TotalStatisticsSchema, 401: ErrorSchema },
      },
    },
    async (request) => statistics.total(request.user.id),
  );

  app.get(
    '/recent',
    {
      schema: {
        tags,
        summary: 'Exactly `days` daily records ending today, newest first, zero-filled.' + zoneNote,
        querystring: RecentQuerySchema,
        response: { 200: DailyStatisticListSchema, ...errors },
      },
    },
    async (request) => statistics.recent(request.user.id, request.query.days, zoneOf(request)),
  );

  app.get(
    '/range',
    {
      schema: {
        tags,
        summary: 'Daily records from startDate to endDate inclusive, newest first.' + zoneNote,
        querystring: RangeQuerySchema,
        response: { 200: DailyStatisticListSchema, ...errors },
      },
    },
    async (request) =>
      statistics.range(
        request.user.id,
        request.query.startDate,
        request.query.endDate,
        zoneOf(request),
      ),
  );

  app.get(
    '/since',
    {
      schema: {
        tags,
        summary: 'Counts from the start of the given day until now.' + zoneNote,
        querystring: SinceQuerySchema,
        response: { 200: SinceStatisticsSchema, ...errors },
      },
    },
    async (request) => statistics.since(request.user.id, request.query.since, zoneOf(request)),
  );
};
