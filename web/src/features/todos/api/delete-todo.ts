import { t, msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { offerUndo } from '#web/lib/undo';
import type { Todo } from '@tally/contract';
import { findTodo, insertTodo, removeTodos } from '../lib/todo-cache';
import { subtreeOf } from '../lib/subtasks';

/** What the screen shows while offline, loaded then (lib/offline-writes.ts). */
const offlineWrites = () => import('../lib/offline-writes');

const OPERATION = msg`Delete todo failed`;

/**
 * Deletes a todo (to the trash) and removes it from the list and the views; the Undo toast
 * offers to restore it. Offline, the deletion is queued and the todo removed at once.
 */
export function useDeleteTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.todos.remove({
        params: { id },
        operation: OPERATION,
        offline: async () =>
          (await offlineWrites()).changeOf(undefined, findTodo(queryClient, id), 'deleting'),
      }),
    onSuccess: (_result, id) => {
      const title = findTodo(queryClient, id)?.title;
      // Its subtasks went to the trash with it (docs/product.md, Subtasks).
      const subtree = subtreeOf(queryClient.getQueryData<Todo[]>(queryKeys.todos) ?? [], id);
      removeTodos(queryClient, [id, ...subtree]);
      offerUndo(
        title === undefined ? t`Deleted the todo` : t`Deleted "${title}"`,
        async () => {
          const todo = await api.trash.restore({
            params: { id },
            operation: msg`Restore todo failed`,
          });
          insertTodo(queryClient, todo);
          // The restore brought its subtasks back too: the list fetches them.
          if (subtree.length > 0) void queryClient.invalidateQueries({ queryKey: queryKeys.todos });
          void queryClient.invalidateQueries({ queryKey: queryKeys.trash });
        },
        { operation: msg`Restore todo failed` },
      );
    },
    meta: { operation: OPERATION, invalidates: [queryKeys.statistics, queryKeys.trash] },
  });
}
