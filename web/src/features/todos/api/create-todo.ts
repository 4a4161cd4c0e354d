import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTodoBody, Todo } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { refreshViews } from '../lib/todo-cache';
import { TODO_FORM_FIELDS } from '../lib/todo-fields';

/** What the screen shows while offline, loaded then (lib/offline-writes.ts). */
const offlineWrites = () => import('../lib/offline-writes');

const OPERATION = msg`Create todo failed`;

/**
 * Creates a todo and adds it at the top of the list; the views by due date are fetched again.
 * Offline, the creation is queued and the todo shown at once (lib/offline-writes.ts).
 */
export function useCreateTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTodoBody) =>
      api.todos.create({
        body,
        operation: OPERATION,
        offline: async () => (await offlineWrites()).createdOffline(body),
      }),
    onSuccess: (created) => {
      queryClient.setQueryData<Todo[]>(queryKeys.todos, (todos = []) => [
        created,
        ...todos.filter((todo) => todo.id !== created.id),
      ]);
      refreshViews(queryClient);
    },
    meta: {
      operation: OPERATION,
      fieldErrors: TODO_FORM_FIELDS,
      invalidates: [queryKeys.statistics],
    },
  });
}
