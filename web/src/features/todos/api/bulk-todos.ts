import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkBody, Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';
import { refreshViews, removeTodos, replaceTodos } from '../lib/todo-cache';

const OPERATION = 'Change todos';

const bulk = (body: BulkBody) => api.todos.bulk({ body, operation: OPERATION });

/** Puts a bulk answer in the cache: deleted todos leave, the others are replaced (or come back). */
function apply(queryClient: ReturnType<typeof useQueryClient>, body: BulkBody, changed: Todo[]) {
  if (body.action === 'delete') removeTodos(queryClient, body.ids);
  else replaceTodos(queryClient, changed);
  refreshViews(queryClient);
  void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
}

/** One change to many todos (POST /api/todos/bulk, one transaction). */
export function useBulkTodos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulk,
    onSuccess: (changed, body) => apply(queryClient, body, changed),
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
