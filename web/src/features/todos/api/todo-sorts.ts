import { msg } from '@lingui/core/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TodoSort, TodoSorts } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Sort todos failed`;

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
    // Offline the choice waits in the queue (lib/api.ts); the list follows it already.
    mutationFn: (body: { view: string; sort: TodoSort }) =>
      api.todos.setSort({
        body,
        operation: OPERATION,
        offline: () => ({
          result: queryClient.getQueryData<TodoSorts>(queryKeys.todoSorts) ?? {},
        }),
      }),
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
