import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';

const OPERATION = msg`Resend verification link failed`;

/** Sends the verification link to the account's address again. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api.account.resendVerification({ operation: OPERATION }),
    meta: { operation: OPERATION },
  });
}
