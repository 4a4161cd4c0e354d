import {
  CreateTodoBodySchema,
  ErrorSchema,
  IdParamsSchema,
  NEXT_CURSOR_HEADER,
  TODO_PAGE_DEFAULT,
  TodoListQuerySchema,
  TodoListSchema,
  TodoSchema,
  UpdateTodoBodySchema,
} from '@tally/contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { compressLargeAnswers } from '../plugins/compression.js';
import type { Clock } from '../shared/clock.js';
import { notFound } from '../shared/errors.js';
import { createTodoService } from './service.js';

const errors = { 400: ErrorSchema, 401: ErrorSchema };

export const todoRoutes: FastifyPluginAsync<{ clock: Clock }> = async (fastify, { clock }) => {
  await compressLargeAnswers(fastify);
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const todos = createTodoService(app.db, clock);
  const tags = ['todos'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "The caller's todos, newest first",
        description:
          'Without parameters, the whole list. With `limit` (or `cursor`), one page; the ' +
          `\`${NEXT_CURSOR_HEADER}\` response header then holds the cursor of the next page and ` +
          'is absent on the last one.',
        querystring: TodoListQuerySchema,
        response: { 200: TodoListSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      if (limit === undefined && cursor === undefined) return todos.list(request.user.id);
      const page = await todos.page(request.user.id, limit ?? TODO_PAGE_DEFAULT, cursor);
      if (page.next) reply.header(NEXT_CURSOR_HEADER, page.next);
      return page.todos;
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a todo',
        body: CreateTodoBodySchema,
        response: { 201: TodoSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await todos.create(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Replace a todo (title, description, group, completed)',
        params: IdParamsSchema,
        body: UpdateTodoBodySchema,
        response: { 200: TodoSchema, ...errors, 404: ErrorSchema },
      },
    },
    async (request) => {
      const todo = await todos.update(request.user.id, request.params.id, request.body);
      if (!todo) throw notFound('Todo');
      return todo;
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        summary: 'Delete a todo',
        params: IdParamsSchema,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errors, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      if (!(await todos.remove(request.user.id, request.params.id))) throw notFound('Todo');
      return reply.code(204).send();
    },
  );
};
