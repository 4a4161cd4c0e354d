import {
  type BulkBody,
  type CreateTodoBody,
  type MoveTodoBody,
  type PatchTodoBody,
  type SetTodoSortBody,
  statisticsApi,
  tagsApi,
  type Todo,
  type TodoListQuery,
  todosApi,
  trashApi,
  type UpdateTodoBody,
} from '@tally/contract';
import type { FastifyInstance } from 'fastify';
import { apiClient, type UncheckedInput } from './api-client.js';

/**
 * The todo calls most tests make, through the contract (test/api-client.ts), as one user in one
 * time zone (the X-Time-Zone header Today and Upcoming are computed in). Writes answer the
 * response (status, headers, body) so a test checks what it expects; reads answer the body.
 * `call` is the whole typed client, `call.unchecked` sends what the contract refuses.
 */
export function todosClient(app: FastifyInstance, user: { token: string }, zone = 'UTC') {
  const call = apiClient(app, user);
  const headers = { 'x-time-zone': zone };
  const id = (todoId: number) => ({ id: todoId });
  return {
    call,
    create: (body: CreateTodoBody) => call(todosApi.create, { body, headers }),
    /** A todo created (201 asserted). */
    made: async (body: CreateTodoBody): Promise<Todo> =>
      (await call(todosApi.create, { body, headers })).expectBody(201),
    put: (todoId: number, body: UpdateTodoBody) =>
      call(todosApi.update, { params: id(todoId), body, headers }),
    patch: (todoId: number, body: PatchTodoBody) =>
      call(todosApi.patch, { params: id(todoId), body, headers }),
    move: (todoId: number, body: MoveTodoBody) =>
      call(todosApi.move, { params: id(todoId), body, headers }),
    skip: (todoId: number) => call(todosApi.skip, { params: id(todoId), headers }),
    remove: (todoId: number) => call(todosApi.remove, { params: id(todoId), headers }),
    bulk: (body: BulkBody) => call(todosApi.bulk, { body, headers }),
    restore: (todoId: number) => call(trashApi.restore, { params: id(todoId), headers }),
    /** GET /api/todos with a query sent as it is (the tests of refused queries). */
    get: (query: UncheckedInput['query'] = {}) => call.unchecked(todosApi.list, { query, headers }),
    list: async (query: TodoListQuery = {}) => {
      const answer = await call(todosApi.list, { query, headers });
      return answer.expectBody(200);
    },
    tags: async () => (await call(tagsApi.list)).data(),
    trash: async () => (await call(trashApi.list, { headers })).data(),
    totals: async () => (await call(statisticsApi.total, { headers })).data(),
    sorts: async () => (await call(todosApi.sorts)).data(),
    setSort: (body: SetTodoSortBody) => call(todosApi.setSort, { body }),
  };
}

export type TodosClient = ReturnType<typeof todosClient>;
