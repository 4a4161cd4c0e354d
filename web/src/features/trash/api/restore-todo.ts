import { useMutation, useQueryClient } from '@tanstack/react-query';
import { t, msg } from '@lingui/core/macro';
import type { TrashedTodo } from '@tally/contract';
import { api } from '#web/lib/api';
import { showNotice } from '#web/lib/notices';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Restore todo failed`;

/** Puts a deleted todo back among the todos. */
export function useRestoreTodo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (todo: TrashedTodo) =>
      api.trash.restore({ params: { id: todo.id }, operation: OPERATION }),
    onSuccess: (restored) => {
      queryClient.setQueryData<TrashedTodo[]>(queryKeys.trash, (trash) =>
        trash?.filter((todo) => todo.id !== restored.id),
      );
      const { title } = restored;
      showNotice(t`Restored "${title}"`, { tone: 'info', durationMs: 4000 });
    },
    meta: { operation: OPERATION, invalidates: [queryKeys.todos] },
  });
}
