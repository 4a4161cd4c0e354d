import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Send test e-mail failed`;

/** Sends a test e-mail to the operator's own address. The list, the health and the audit log are read again. */
export function useSendTestEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.admin.testEmail({ operation: OPERATION }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
    meta: { operation: OPERATION },
  });
}
