import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EndOtherAccess, Passkey } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { reloadEnded } from '#web/lib/end-other-access';

const OPERATION = msg`Remove passkey failed`;

/**
 * Removes a passkey (after a recent proof of identity): it no longer signs in. The other
 * sessions, tokens and feed end with it when asked.
 */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, choice }: { id: number; choice: EndOtherAccess }) =>
      api.passkeys.remove({ params: { id }, body: choice, operation: OPERATION }),
    onSuccess: (_, { id, choice }) => {
      queryClient.setQueryData<Passkey[]>(queryKeys.accountPasskeys, (passkeys) =>
        passkeys?.filter((passkey) => passkey.id !== id),
      );
      reloadEnded(queryClient, choice);
    },
    meta: { operation: OPERATION },
  });
}
