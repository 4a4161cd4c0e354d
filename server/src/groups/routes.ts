import { etagOfVersion, groupsApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import { createGroupService } from './service.js';

export const groupRoutes: FastifyPluginAsync<{ clock: Clock }> = async (app, { clock }) => {
  const groups = createGroupService(app.db, clock);

  addEndpoint(app, groupsApi.list, async (request) => groups.list(request.user.id));

  // Each change is published once committed (docs/decisions/061-live-updates.md).
  addEndpoint(app, groupsApi.create, async (request, reply) => {
    const group = await groups.create(request.user.id, request.body);
    app.live.publish(request.user.id, { type: 'group.created', id: group.id }, request);
    return reply.code(201).header('etag', etagOfVersion(group.version)).send(group);
  });

  addEndpoint(app, groupsApi.update, async (request, reply) => {
    const group = await groups.update(
      request.user.id,
      request.params.id,
      request.body,
      request.headers['if-match'],
    );
    if (!group) throw notFound('Group');
    app.live.publish(request.user.id, { type: 'group.updated', id: group.id }, request);
    return reply.header('etag', etagOfVersion(group.version)).send(group);
  });

  addEndpoint(app, groupsApi.remove, async (request, reply) => {
    const removed = await groups.remove(
      request.user.id,
      request.params.id,
      request.headers['if-match'],
    );
    if (!removed) throw notFound('Group');
    app.live.publish(request.user.id, { type: 'group.deleted', id: request.params.id }, request);
    return reply.code(204).send();
  });
};
