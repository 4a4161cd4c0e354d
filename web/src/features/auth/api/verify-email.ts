import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const VERIFY_EMAIL_OPERATION = msg`E-mail verification failed`;

/** Marks the address verified with a verification link's token. */
export function useVerifyEmail() {
  return useMutation({
    mutationFn: (token: string) =>
      api.auth.verifyEmail({ body: { token }, operation: VERIFY_EMAIL_OPERATION }),
    meta: { invalidates: [queryKeys.account] },
  });
}
