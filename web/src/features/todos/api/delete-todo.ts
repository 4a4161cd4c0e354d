import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = 'Delete todo';

/** Deletes a todo and removes it from the list. */
export function useDeleteTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.todos.remove({ params: { id }, operation: OPERATION }),
    onSuccess: (_result, id) => {
      queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos) =>
        todos?.filter((todo) => todo.id !== id),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
