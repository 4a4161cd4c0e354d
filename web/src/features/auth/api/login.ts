import { useMutation } from '@tanstack/react-query';
import type { LoginBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';

export const LOGIN_OPERATION = 'Login';

/** Signs in; the stored token makes /login redirect to /todos. */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody) => {
      const { accessToken } = await api.auth.login({ body, operation: LOGIN_OPERATION });
      startSession(accessToken);
    },
  });
}
