import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Undo import failed`;

/**
 * Undoes an import (POST /api/imports/{id}/undo): its todos go to the trash, its empty groups
 * away; the todos, groups, trash, statistics and the history are fetched again.
 */
export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.transfer.undo({ params: { id }, operation: OPERATION }),
    onSuccess: () => {
      for (const queryKey of [
        queryKeys.todos,
        queryKeys.groups,
        queryKeys.trash,
        queryKeys.statistics,
        queryKeys.accountImports,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
    meta: { operation: OPERATION },
  });
}
