import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Resend verification link failed`;

/** Sends the account a new verification link. The list, the health and the audit log are read again. */
export function useResendUserVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.admin.resendVerification({ params: { id }, operation: OPERATION }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
    meta: { operation: OPERATION },
  });
}
