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
    await app.notifications.groupEvent(request.user.id, 'group.created', group);
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
    await app.notifications.groupEvent(request.user.id, 'group.updated', group);
    return reply.header('etag', etagOfVersion(group.version)).send(group);
  });

  addEndpoint(app, groupsApi.remove, async (request, reply) => {
    // Its name, for the webhook event: the row is gone after.
    const before = await app.db
      .selectFrom('todo_groups')
      .select(['id', 'name'])
      .where('id', '=', request.params.id)
      .where('user_id', '=', request.user.id)
      .executeTakeFirst();
    const removed = await groups.remove(
      request.user.id,
      request.params.id,
      request.headers['if-match'],
    );
    if (!removed) throw notFound('Group');
    app.live.publish(request.user.id, { type: 'group.deleted', id: request.params.id }, request);
    if (before) await app.notifications.groupEvent(request.user.id, 'group.deleted', before);
    return reply.code(204).send();
  });
};
