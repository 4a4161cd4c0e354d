import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Todo, UpdateTodoBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = 'Update todo';

/** A full replacement of title, description, groupId and completed. */
const updateTodo = (id: number, body: UpdateTodoBody) =>
  api.todos.update({ params: { id }, body, operation: OPERATION });

function replaceTodo(queryClient: QueryClient, id: number, change: (todo: Todo) => Todo): void {
  queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos) =>
    todos?.map((todo) => (todo.id === id ? change(todo) : todo)),
  );
}

const bodyOf = (todo: Todo): UpdateTodoBody => ({
  title: todo.title,
  description: todo.description,
  groupId: todo.groupId,
  completed: todo.completed,
});

/** Saves an inline edit; the todo is replaced in place when the server answers. */
export function useUpdateTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateTodoBody & { id: number }) => updateTodo(id, body),
    onSuccess: (updated) => {
      replaceTodo(queryClient, updated.id, () => updated);
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error) => reportMutationError(error, OPERATION),
  });
}

/**
 * The completion checkbox: flips at once (optimistic) and flips back, with a visible message,
 * when the server refuses or cannot be reached (docs/product.md, Differences, item 4).
 */
export function useToggleTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (todo: Todo) =>
      updateTodo(todo.id, { ...bodyOf(todo), completed: !todo.completed }),
    onMutate: async (todo) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.todos });
      replaceTodo(queryClient, todo.id, (current) => ({ ...current, completed: !todo.completed }));
    },
    onSuccess: (updated) => {
      replaceTodo(queryClient, updated.id, () => updated);
      void queryClient.invalidateQueries({ queryKey: queryKeys.statistics });
    },
    onError: (error, todo) => {
      replaceTodo(queryClient, todo.id, (current) => ({ ...current, completed: todo.completed }));
      reportMutationError(error, OPERATION);
    },
  });
}
