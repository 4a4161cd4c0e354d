import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { VERIFY_EMAIL_OPERATION } from './verify-email';

/**
 * The account and address a verification link is for; the link is not used. A mutation, not a
 * query: nothing keyed by the token is kept in the query cache, which is saved for offline use.
 */
export function useVerificationAccount() {
  return useMutation({
    mutationFn: (token: string) =>
      api.auth.verifyEmailAccount({ body: { token }, operation: VERIFY_EMAIL_OPERATION }),
  });
}
