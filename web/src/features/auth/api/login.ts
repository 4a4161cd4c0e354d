import { useMutation } from '@tanstack/react-query';
import type { LoginBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';

export const LOGIN_OPERATION = 'Login';

/** Signs in; the stored token makes /login redirect to /todos. */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody) => {
      const answer = await api.auth.login({ body, operation: LOGIN_OPERATION });
      // An operator-made account's one-time password: "Choose a new password" comes first.
      startSession(answer.accessToken, {
        passwordChangeRequired: answer.passwordChangeRequired === true,
      });
    },
  });
}
