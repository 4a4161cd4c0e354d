import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { showNotice } from '#web/lib/notices';
import { queryKeys } from '#web/lib/query-keys';
import { dueLabel } from '../lib/dates';
import { refreshViews, replaceTodo } from '../lib/todo-cache';

const OPERATION = 'Skip todo';

/** Skips the current occurrence of a repeating todo: it moves to its next due date. */
export function useSkipTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.todos.skip({ params: { id }, operation: OPERATION }),
    onSuccess: (skipped) => {
      replaceTodo(queryClient, skipped.id, () => skipped);
      refreshViews(queryClient);
      showNotice(`${skipped.title}: skipped. Next due ${dueLabel(skipped, new Date())}.`, {
        tone: 'info',
        durationMs: 6000,
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
