import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import type { LoginBody, MfaRequiredResponse } from '@tally/contract';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';

export const LOGIN_OPERATION = msg`Login failed`;

/**
 * Signs in; the stored token makes /login redirect to /todos. An account with two-factor codes
 * on answers the second step instead: the mutation's result, for the login page to ask a code.
 */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody): Promise<MfaRequiredResponse | null> => {
      const answer = await api.auth.login({ body, operation: LOGIN_OPERATION });
      if ('mfaRequired' in answer) return answer;
      // An operator-made account's one-time password: "Choose a new password" comes first.
      startSession(answer.accessToken, {
        passwordChangeRequired: answer.passwordChangeRequired === true,
      });
      return null;
    },
  });
}
