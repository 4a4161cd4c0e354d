import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { getPasskey } from '#web/lib/webauthn';

const OPERATION = msg`Confirm it is you failed`;

/** Proves identity again with one of the account's passkeys, for a sensitive change. */
export function useReauthenticateWithPasskey() {
  return useMutation({
    mutationFn: async () => {
      const options = await api.passkeys.reauthenticationOptions({ operation: OPERATION });
      const response = await getPasskey(options);
      await api.passkeys.reauthenticate({ body: { response }, operation: OPERATION });
    },
  });
}
