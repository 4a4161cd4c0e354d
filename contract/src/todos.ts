import { Type, type Static } from '@sinclair/typebox';
import { LIMITS } from './constants.js';
import { NOT_BLANK, NO_NUL } from './common.js';

const title = Type.String({ minLength: 1, maxLength: LIMITS.todoTitleMax, pattern: NOT_BLANK });
const description = Type.Union([
  Type.String({ maxLength: LIMITS.todoDescriptionMax, pattern: NO_NUL }),
  Type.Null(),
]);
const groupId = Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
  description: "One of the caller's groups, or null for no group",
});

export const TodoSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    groupId: Type.Union([Type.Integer(), Type.Null()]),
    completed: Type.Boolean(),
    created: Type.String({ format: 'date-time', description: 'ISO 8601, UTC' }),
  },
  { additionalProperties: false },
);
export type Todo = Static<typeof TodoSchema>;

export const TodoListSchema = Type.Array(TodoSchema, {
  description: 'Newest first',
});

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
