import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EndOtherAccess, Passkey } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { createPasskey } from '#web/lib/webauthn';
import { reloadEnded } from '#web/lib/end-other-access';

export const ADD_PASSKEY_OPERATION = msg`Add passkey failed`;

/**
 * Adds a passkey: the server's options (a recent proof of identity first, asked by the "Confirm
 * it's you" dialog), the browser's prompt, then the server's check. The list gets the new one;
 * the other sessions, tokens and feed end with it when asked.
 * Errors stay in the mutation, for the sentence beside the form.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, choice }: { name: string; choice: EndOtherAccess }) => {
      const options = await api.passkeys.registrationOptions({ operation: ADD_PASSKEY_OPERATION });
      const response = await createPasskey(options);
      return api.passkeys.add({
        body: { name, response, ...choice },
        operation: ADD_PASSKEY_OPERATION,
      });
    },
    onSuccess: (added, { choice }) => {
      queryClient.setQueryData<Passkey[]>(queryKeys.accountPasskeys, (passkeys) => [
        ...(passkeys ?? []),
        added,
      ]);
      reloadEnded(queryClient, choice);
    },
  });
}
