import { etagOfVersion, filtersApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import { timeZoneOf } from '../shared/time-zone.js';
import { createSavedFilterService } from './service.js';

export const savedFilterRoutes: FastifyPluginAsync<{ clock: Clock }> = async (app, { clock }) => {
  const filters = createSavedFilterService(app.db, clock);

  addEndpoint(app, filtersApi.list, async (request) => filters.list(request.user.id));

  // Each change is published once committed, so the user's other devices show it
  // (docs/decisions/061-live-updates.md).
  addEndpoint(app, filtersApi.create, async (request, reply) => {
    const filter = await filters.create(request.user.id, request.body);
    app.live.publish(request.user.id, { type: 'filter.created', id: filter.id }, request);
    return reply.code(201).header('etag', etagOfVersion(filter.version)).send(filter);
  });

  addEndpoint(app, filtersApi.update, async (request, reply) => {
    const filter = await filters.update(
      request.user.id,
      request.params.id,
      request.body,
      request.headers['if-match'],
    );
    if (!filter) throw notFound('Filter');
    app.live.publish(request.user.id, { type: 'filter.updated', id: filter.id }, request);
    return reply.header('etag', etagOfVersion(filter.version)).send(filter);
  });

  addEndpoint(app, filtersApi.makeFeed, async (request, reply) => {
    const feed = await filters.makeFeed(request.user.id, request.params.id, timeZoneOf(request));
    if (!feed) throw notFound('Filter');
    request.log.warn(
      { security: 'calendar-feed-regenerated', userId: request.user.id, ip: request.ip },
      "A saved filter's calendar feed URL made; any earlier one stopped working",
    );
    app.live.publish(request.user.id, { type: 'filter.updated', id: request.params.id }, request);
    return reply.code(201).send(feed);
  });

  addEndpoint(app, filtersApi.removeFeed, async (request, reply) => {
    if (!(await filters.removeFeed(request.user.id, request.params.id))) throw notFound('Filter');
    app.live.publish(request.user.id, { type: 'filter.updated', id: request.params.id }, request);
    return reply.code(204).send();
  });

  addEndpoint(app, filtersApi.remove, async (request, reply) => {
    const removed = await filters.remove(
      request.user.id,
      request.params.id,
      request.headers['if-match'],
    );
    if (!removed) throw notFound('Filter');
    app.live.publish(request.user.id, { type: 'filter.deleted', id: request.params.id }, request);
    return reply.code(204).send();
  });
};
