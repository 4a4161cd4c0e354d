import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTodoBody, Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';
import { refreshViews } from '../lib/todo-cache';

const OPERATION = 'Create todo';

/** Creates a todo and adds it at the top of the list; the views by due date are fetched again. */
export function useCreateTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTodoBody) => api.todos.create({ body, operation: OPERATION }),
    onSuccess: (created) => {
      queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos = []) => [
        created,
        ...todos.filter((todo) => todo.id !== created.id),
      ]);
      refreshViews(queryClient);
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
