import {
  ErrorSchema,
  GroupBodySchema,
  GroupListSchema,
  GroupSchema,
  IdParamsSchema,
} from '@tally/contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { notFound } from '../shared/errors.js';
import { createGroupService } from './service.js';

const errors = { 400: ErrorSchema, 401: ErrorSchema };

export const groupRoutes: FastifyPluginAsync<{ clock: Clock }> = async (fastify, { clock }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const groups = createGroupService(app.db, clock);
  const tags = ['groups'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "The caller's groups, newest first",
        response: { 200: GroupListSchema, 401: ErrorSchema },
      },
    },
    async (request) => groups.list(request.user.id),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a group',
        body: GroupBodySchema,
        response: { 201: GroupSchema, ...errors, 409: ErrorSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await groups.create(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Rename or recolour a group',
        params: IdParamsSchema,
        body: GroupBodySchema,
        response: { 200: GroupSchema, ...errors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      const group = await groups.update(request.user.id, request.params.id, request.body);
      if (!group) throw notFound('Group');
      return group;
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a group; its todos become ungrouped',
        params: IdParamsSchema,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errors, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      if (!(await groups.remove(request.user.id, request.params.id))) throw notFound('Group');
      return reply.code(204).send();
    },
  );
};
