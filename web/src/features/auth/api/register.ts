import { useMutation } from '@tanstack/react-query';
import type { RegisterBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';

export const REGISTER_OPERATION = 'Registration';

/** Creates the account and signs it in. */
export function useRegister() {
  return useMutation({
    mutationFn: async (body: RegisterBody) => {
      const { accessToken } = await api.auth.register({ body, operation: REGISTER_OPERATION });
      startSession(accessToken);
    },
  });
}
