import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TrashedTodo } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Empty trash failed`;

/** Deletes every todo in the trash for good. */
export function useEmptyTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.trash.empty({ operation: OPERATION }),
    onSuccess: () => {
      queryClient.setQueryData<TrashedTodo[]>(queryKeys.trash, []);
    },
    meta: { operation: OPERATION },
  });
}
