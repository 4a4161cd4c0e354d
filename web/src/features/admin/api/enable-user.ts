import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Enable account failed`;

/** Lets a disabled account sign in again. The list, the health and the audit log are read again. */
export function useEnableUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.admin.enable({ params: { id }, operation: OPERATION }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
    meta: { operation: OPERATION },
  });
}
