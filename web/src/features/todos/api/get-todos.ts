import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Todo } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/todos: the user's todos, newest first. */
export function fetchTodos({ signal }: { signal?: AbortSignal } = {}): Promise<Todo[]> {
  return apiRequest<Todo[]>('/api/todos', { operation: 'Load todos', signal });
}

export const todosQueryOptions = queryOptions({
  queryKey: queryKeys.todos,
  queryFn: fetchTodos,
});

export function useTodos() {
  return useQuery(todosQueryOptions);
}
