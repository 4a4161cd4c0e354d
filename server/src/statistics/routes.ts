import { statisticsApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import { compressLargeAnswers } from '../plugins/compression.js';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { timeZoneOf } from '../shared/time-zone.js';
import { createInsights } from './insights.js';
import { createStatisticsService } from './service.js';

export const statisticsRoutes: FastifyPluginAsync<{ clock: Clock }> = async (app, { clock }) => {
  await compressLargeAnswers(app);
  const statistics = createStatisticsService(app.db, clock);
  const insights = createInsights(app.db, clock);

  addEndpoint(app, statisticsApi.total, async (request) => statistics.total(request.user.id));

  addEndpoint(app, statisticsApi.recent, async (request) =>
    statistics.recent(request.user.id, request.query.days, timeZoneOf(request)),
  );

  addEndpoint(app, statisticsApi.range, async (request) =>
    statistics.range(
      request.user.id,
      request.query.startDate,
      request.query.endDate,
      timeZoneOf(request),
    ),
  );

  addEndpoint(app, statisticsApi.since, async (request) =>
    statistics.since(request.user.id, request.query.since, timeZoneOf(request)),
  );

  addEndpoint(app, statisticsApi.insights, async (request) =>
    insights(request.user.id, request.query.weeks, timeZoneOf(request)),
  );
};
