import { Type, type Static } from '@sinclair/typebox';
import { LIMITS, NEXT_CURSOR_HEADER, TODO_PAGE_DEFAULT, TODO_PAGE_MAX } from './constants.js';
import { ErrorSchema, IdParamsSchema, NOT_BLANK, NO_NUL } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

const title = Type.String({ minLength: 1, maxLength: LIMITS.todoTitleMax, pattern: NOT_BLANK });
const description = Type.Union([
  Type.String({ maxLength: LIMITS.todoDescriptionMax, pattern: NO_NUL }),
  Type.Null(),
]);
const groupId = Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
  description: "One of the caller's groups, or null for no group",
});

/**
 * Nullable answer fields as JSON Schema type lists, not anyOf: Fastify's serialiser runs a
 * validator per value to pick an anyOf branch, which cost most of a 200-todo answer
 * (docs/decisions/038-per-request-work.md).
 */
const nullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
const nullableInteger = Type.Unsafe<number | null>({ type: ['integer', 'null'] });

export const TodoSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: nullableString,
    groupId: nullableInteger,
    completed: Type.Boolean(),
    created: Type.String({ format: 'date-time', description: 'ISO 8601, UTC' }),
  },
  { additionalProperties: false },
);
export type Todo = Static<typeof TodoSchema>;

export const TodoListSchema = Type.Array(TodoSchema, {
  description: 'Newest first',
});

/**
 * Opt-in paging of GET /api/todos (docs/product.md, API: without parameters the whole list). With
 * `limit` (or `cursor`), the answer is one page, newest first, and the `x-next-cursor` header
 * carries the cursor of the next page; no header means the last page.
 */
export const TodoListQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TODO_PAGE_MAX,
        description: `Page size, 1-${TODO_PAGE_MAX} (${TODO_PAGE_DEFAULT} when only cursor is given)`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        description: `The ${NEXT_CURSOR_HEADER} header of the previous page`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type TodoListQuery = Static<typeof TodoListQuerySchema>;

export const CreateTodoBodySchema = Type.Object(
  {
    title,
    description: Type.Optional(description),
    groupId: Type.Optional(groupId),
  },
  { additionalProperties: false },
);
export type CreateTodoBody = Static<typeof CreateTodoBodySchema>;

/** A full replacement: omitted description or groupId become null. */
export const UpdateTodoBodySchema = Type.Object(
  {
    title,
    description: Type.Optional(description),
    groupId: Type.Optional(groupId),
    completed: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type UpdateTodoBody = Static<typeof UpdateTodoBodySchema>;

export const todosApi = defineEndpoints('todos', routes.todos, {
  list: {
    summary: "The caller's todos, newest first",
    description:
      'Without parameters, the whole list. With `limit` (or `cursor`), one page; the ' +
      `\`${NEXT_CURSOR_HEADER}\` response header then holds the cursor of the next page and ` +
      'is absent on the last one.',
    query: TodoListQuerySchema,
    responses: { 200: TodoListSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  create: {
    summary: 'Create a todo',
    body: CreateTodoBodySchema,
    responses: { 201: TodoSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  update: {
    summary: 'Replace a todo (title, description, group, completed)',
    params: IdParamsSchema,
    body: UpdateTodoBodySchema,
    responses: { 200: TodoSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  remove: {
    summary: 'Delete a todo',
    params: IdParamsSchema,
    responses: {
      204: NoContent('Deleted'),
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
    },
  },
});
