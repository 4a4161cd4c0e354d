import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Delete account failed`;

/** Deletes an account and all its data. The list, the health and the audit log are read again. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.admin.remove({ params: { id }, operation: OPERATION }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
    meta: { operation: OPERATION },
  });
}
