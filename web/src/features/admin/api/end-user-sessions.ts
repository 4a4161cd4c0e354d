import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`End sessions failed`;

/** Ends every session of the account. The list, the health and the audit log are read again. */
export function useEndUserSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.admin.endSessions({ params: { id }, operation: OPERATION }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
    meta: { operation: OPERATION },
  });
}
