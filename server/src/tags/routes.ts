import { tagsApi } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import { createTagService } from './service.js';

export const tagRoutes: FastifyPluginAsync = async (app) => {
  const tags = createTagService(app.db);

  addEndpoint(app, tagsApi.list, async (request) => tags.list(request.user.id));

  // A tag change shows on many todos: the user's other clients fetch again
  // (docs/decisions/061-live-updates.md).
  addEndpoint(app, tagsApi.update, async (request) => {
    const tag = await tags.update(request.user.id, request.params.name, request.body);
    if (!tag) throw notFound('Tag');
    app.live.publish(request.user.id, { type: 'todos.changed' }, request);
    return tag;
  });

  addEndpoint(app, tagsApi.remove, async (request, reply) => {
    if (!(await tags.remove(request.user.id, request.params.name))) throw notFound('Tag');
    app.live.publish(request.user.id, { type: 'todos.changed' }, request);
    return reply.code(204).send();
  });
};
