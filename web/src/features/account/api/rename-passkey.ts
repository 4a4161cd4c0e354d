import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Passkey } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Rename passkey failed`;

/** Renames a passkey; a refused name stays in the mutation for the sentence beside the field. */
export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      api.passkeys.rename({ params: { id }, body: { name }, operation: OPERATION }),
    onSuccess: (renamed) => {
      queryClient.setQueryData<Passkey[]>(queryKeys.accountPasskeys, (passkeys) =>
        passkeys?.map((passkey) => (passkey.id === renamed.id ? renamed : passkey)),
      );
    },
  });
}
