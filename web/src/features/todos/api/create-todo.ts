import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTodoBody, Todo } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { reportMutationError } from '../../../lib/mutation-errors';
import { queryKeys } from '../../../lib/query-keys';

const OPERATION = 'Create todo';

/** POST /api/todos */
export function createTodo(body: CreateTodoBody): Promise<Todo> {
  return apiRequest<Todo, CreateTodoBody>('/api/todos', {
    method: 'POST',
    body,
    operation: OPERATION,
  });
}

/** Creates a todo and adds it at the top of the list. */
export function useCreateTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTodo,
    onSuccess: (created) => {
      queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos = []) => [
        created,
        ...todos.filter((todo) => todo.id !== created.id),
      ]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
