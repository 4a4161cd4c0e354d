import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Passkey } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = 'Remove passkey';

/** Removes a passkey (after a recent proof of identity): it no longer signs in. */
export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.passkeys.remove({ params: { id }, operation: OPERATION }),
    onSuccess: (_, id) => {
      queryClient.setQueryData<Passkey[]>(queryKeys.accountPasskeys, (passkeys) =>
        passkeys?.filter((passkey) => passkey.id !== id),
      );
    },
    meta: { operation: OPERATION },
  });
}
