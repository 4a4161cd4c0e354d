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
 * response (status, body, headers) so a test checks what it expects; reads answer the body.
 * `call` is the whole typed client, `call.unchecked` sends what the contract refuses.
 */
export function todosClient(app: FastifyInstance, user: { token: string }, zone = 'UTC') {
  const call = apiClient(app, user);
  const headers = { 'x-time-zone': zone };
  const id = (todoId: number) => ({ id: todoId });
  return {
    call,
    create: async (body: CreateTodoBody) =>
      (await call(todosApi.create, { body, headers })).response,
    /** A todo created (201 asserted). */
    made: async (body: CreateTodoBody): Promise<Todo> =>
      (await call(todosApi.create, { body, headers })).expectBody(201),
    put: async (todoId: number, body: UpdateTodoBody) =>
      (await call(todosApi.update, { params: id(todoId), body, headers })).response,
    patch: async (todoId: number, body: PatchTodoBody) =>
      (await call(todosApi.patch, { params: id(todoId), body, headers })).response,
    move: async (todoId: number, body: MoveTodoBody) =>
      (await call(todosApi.move, { params: id(todoId), body, headers })).response,
    skip: async (todoId: number) =>
      (await call(todosApi.skip, { params: id(todoId), headers })).response,
    remove: async (todoId: number) =>
      (await call(todosApi.remove, { params: id(todoId), headers })).response,
    bulk: async (body: BulkBody) => (await call(todosApi.bulk, { body, headers })).response,
    restore: async (todoId: number) =>
      (await call(trashApi.restore, { params: id(todoId), headers })).response,
    /** GET /api/todos with a query sent as it is (the tests of refused queries). */
    get: (query: UncheckedInput['query'] = {}) =>
      call.unchecked(todosApi.list, { query, headers }),
    list: async (query: TodoListQuery = {}) => {
      const answer = await call(todosApi.list, { query, headers });
      return answer.expectBody(200);
    },
    tags: async () => (await call(tagsApi.list)).body(),
    trash: async () => (await call(trashApi.list, { headers })).body(),
    totals: async () => (await call(statisticsApi.total, { headers })).body(),
    sorts: async () => (await call(todosApi.sorts)).body(),
    setSort: async (body: SetTodoSortBody) => (await call(todosApi.setSort, { body })).response,
  };
}

export type TodosClient = ReturnType<typeof todosClient>;

