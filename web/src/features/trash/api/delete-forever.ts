import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TrashedTodo } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Delete forever failed`;

/** Deletes one todo of the trash for good. */
export function useDeleteForever() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.trash.remove({ params: { id }, operation: OPERATION }),
    onSuccess: (_result, id) => {
      queryClient.setQueryData<TrashedTodo[]>(queryKeys.trash, (trash) =>
        trash?.filter((todo) => todo.id !== id),
      );
    },
    meta: { operation: OPERATION },
  });
}
