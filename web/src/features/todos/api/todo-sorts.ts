import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TodoSort, TodoSorts } from '@tally/contract';
import { api } from '#web/lib/api';
import { isOffline } from '#web/lib/online';
import { queryKeys } from '#web/lib/query-keys';
import { queueSort } from '../lib/offline-writes';

const OPERATION = 'Sort todos';

/** The sort the user chose for each view, kept on the server so every device shows it. */
export function useTodoSorts() {
  return useQuery({
    queryKey: queryKeys.todoSorts,
    queryFn: ({ signal }) => api.todos.sorts({ operation: OPERATION, signal }),
  });
}

/** Keeps one view's sort; the list follows at once, before the server answers (or offline). */
export function useSetTodoSort() {
  const queryClient = useQueryClient();
  return useMutation({
    // Offline the choice waits in the queue (lib/offline-writes.ts); the list follows it already.
    mutationFn: async (body: { view: string; sort: TodoSort }) => {
      if (!isOffline()) return api.todos.setSort({ body, operation: OPERATION });
      await queueSort(body, OPERATION);
      return queryClient.getQueryData<TodoSorts>(queryKeys.todoSorts) ?? {};
    },
    onMutate: ({ view, sort }) => {
      queryClient.setQueryData<TodoSorts>(queryKeys.todoSorts, (sorts) => ({
        ...sorts,
        [view]: sort,
      }));
    },
    onSuccess: (sorts) => queryClient.setQueryData(queryKeys.todoSorts, sorts),
    meta: { operation: OPERATION },
  });
}
