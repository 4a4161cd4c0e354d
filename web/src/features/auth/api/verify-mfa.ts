import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import type { MfaBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { startSession } from '#web/lib/session-store';

export const MFA_OPERATION = msg`Two-factor sign-in failed`;

/** The second step of a sign-in: the code for the mfaToken; signs in as a login does. */
export function useVerifyMfa() {
  return useMutation({
    mutationFn: async (body: MfaBody) => {
      const answer = await api.auth.mfa({ body, operation: MFA_OPERATION });
      startSession(answer.accessToken, {
        passwordChangeRequired: answer.passwordChangeRequired === true,
      });
    },
  });
}
