import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';

const OPERATION = 'Resend verification link';

/** Sends the verification link to the account's address again. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api.account.resendVerification({ operation: OPERATION }),
    onError: (error) => reportMutationError(error, OPERATION),
  });
}
