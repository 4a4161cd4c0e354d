import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The user's todos, newest first: the whole list, as the screen shows it. */
const todosQueryOptions = queryOptions({
  queryKey: queryKeys.todos,
  queryFn: ({ signal }) => api.todos.list({ query: {}, operation: 'Load todos', signal }),
});

export function useTodos() {
  return useQuery(todosQueryOptions);
}
