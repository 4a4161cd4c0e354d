import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Passkey } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { createPasskey } from '#web/lib/webauthn';

export const ADD_PASSKEY_OPERATION = 'Add passkey';

/**
 * Adds a passkey: the server's options (a recent proof of identity first, asked by the "Confirm
 * it's you" dialog), the browser's prompt, then the server's check. The list gets the new one.
 * Errors stay in the mutation, for the sentence beside the form.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await api.passkeys.registrationOptions({ operation: ADD_PASSKEY_OPERATION });
      const response = await createPasskey(options);
      return api.passkeys.add({ body: { name, response }, operation: ADD_PASSKEY_OPERATION });
    },
    onSuccess: (added) => {
      queryClient.setQueryData<Passkey[]>(queryKeys.accountPasskeys, (passkeys) => [
        ...(passkeys ?? []),
        added,
      ]);
    },
  });
}
