import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Link Google failed`;

/**
 * Links the Google account of the credential; answers the account. Every attempt spends the
 * browser's Google nonce, so Google's button gets a new one afterwards.
 */
export function useLinkGoogle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credential: string) =>
      api.account.linkGoogle({ body: { token: credential }, operation: OPERATION }),
    onSuccess: (account) => queryClient.setQueryData(queryKeys.account, account),
    meta: { operation: OPERATION },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.googleNonce }),
  });
}
