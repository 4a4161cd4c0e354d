import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema, IdParamsSchema } from './common.js';
import { TRASH_DAYS } from './constants.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';
import { TodoSchema } from './todos.js';

/** A todo in the trash: the todo as it was deleted, and when. */
export const TrashedTodoSchema = Type.Object(
  {
    ...TodoSchema.properties,
    trashedAt: Type.String({ format: 'date-time', description: 'When it was deleted (UTC)' }),
  },
  { additionalProperties: false },
);
export type TrashedTodo = Static<typeof TrashedTodoSchema>;

export const trashApi = defineEndpoints('trash', routes.trash, {
  list: {
    summary: "The caller's deleted todos, most recently deleted first",
    description: `Each stays ${TRASH_DAYS} days after it was deleted, then is purged for good.`,
    responses: {
      200: Type.Array(TrashedTodoSchema, { description: 'Most recently deleted first' }),
      401: ErrorSchema,
    },
  },
  restore: {
    summary: 'Put a deleted todo back',
    description:
      'It returns with the same id and fields; with no group when its group was deleted ' +
      'meanwhile.',
    params: IdParamsSchema,
    responses: { 200: TodoSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  remove: {
    summary: 'Delete a todo in the trash for good',
    params: IdParamsSchema,
    responses: {
      204: NoContent('Deleted for good'),
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
    },
  },
  empty: {
    summary: 'Empty the trash: delete every todo in it for good',
    responses: { 204: NoContent('Emptied'), 401: ErrorSchema },
  },
});
