import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import type { PasswordResetBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { endSession, getSession } from '#web/lib/session-store';

export const RESET_PASSWORD_OPERATION = msg`Password reset failed`;

/**
 * Sets a new password with a reset link's token. The server ends every session of the account,
 * so a browser still signed in signs out too (quietly: the page says what happened).
 */
export function useResetPassword() {
  return useMutation({
    mutationFn: async (body: PasswordResetBody) => {
      await api.auth.resetPassword({ body, operation: RESET_PASSWORD_OPERATION });
      if (getSession().token) endSession();
    },
  });
}
