import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Todo } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { reportMutationError } from '../../../lib/mutation-errors';
import { queryKeys } from '../../../lib/query-keys';

const OPERATION = 'Delete todo';

/** DELETE /api/todos/{id} */
export function deleteTodo(id: number): Promise<undefined> {
  return apiRequest<undefined>(`/api/todos/${id}`, { method: 'DELETE', operation: OPERATION });
}

/** Deletes a todo and removes it from the list. */
export function useDeleteTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTodo,
    onSuccess: (_result, id) => {
      queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos) =>
        todos?.filter((todo) => todo.id !== id),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
