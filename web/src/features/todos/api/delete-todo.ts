import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { isOffline } from '#web/lib/online';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';
import { queueDelete } from '../lib/offline-writes';
import { removeTodo } from '../lib/todo-cache';

const OPERATION = 'Delete todo';

/** Deletes a todo and removes it from the list and the views (offline: queued, removed now). */
export function useDeleteTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      isOffline()
        ? queueDelete(id, OPERATION)
        : api.todos.remove({ params: { id }, operation: OPERATION }),
    onSuccess: (_result, id) => {
      removeTodo(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
