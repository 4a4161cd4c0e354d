import { TIME_ZONE_HEADER, statisticsApi } from '@tally/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { compressLargeAnswers } from '../plugins/compression.js';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { resolveTimeZone } from './calendar.js';
import { createStatisticsService } from './service.js';

const zoneOf = (request: FastifyRequest) => {
  const header = request.headers[TIME_ZONE_HEADER];
  return resolveTimeZone(Array.isArray(header) ? header[0] : header);
};

export const statisticsRoutes: FastifyPluginAsync<{ clock: Clock }> = async (app, { clock }) => {
  await compressLargeAnswers(app);
  const statistics = createStatisticsService(app.db, clock);

  addEndpoint(app, statisticsApi.total, async (request) => statistics.total(request.user.id));

  addEndpoint(app, statisticsApi.recent, async (request) =>
    statistics.recent(request.user.id, request.query.days, zoneOf(request)),
  );

  addEndpoint(app, statisticsApi.range, async (request) =>
    statistics.range(
      request.user.id,
      request.query.startDate,
      request.query.endDate,
      zoneOf(request),
    ),
  );

  addEndpoint(app, statisticsApi.since, async (request) =>
    statistics.since(request.user.id, request.query.since, zoneOf(request)),
  );
};
