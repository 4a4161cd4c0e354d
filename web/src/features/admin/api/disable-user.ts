import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Disable account failed`;

/** Disables an account: it cannot sign in, and its sessions end. The list, the health and the audit log are read again. */
export function useDisableUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.admin.disable({ params: { id }, operation: OPERATION }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
    meta: { operation: OPERATION },
  });
}
