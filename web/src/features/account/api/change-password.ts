import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { setPasswordChangeRequired } from '#web/lib/session-store';

const OPERATION = msg`Change password failed`;

/**
 * Changes the password; the server ends every other session (and, when asked, every API token
 * and the calendar feed), so those are reloaded. A one-time password is gone with it.
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      api.account.changePassword({ body, operation: OPERATION }),
    onSuccess: (_answer, body) => {
      setPasswordChangeRequired(false);
      if (body.endApiTokensAndFeed) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.accountTokens });
        void queryClient.invalidateQueries({ queryKey: queryKeys.calendarFeed });
      }
    },
    // A refused password (the current one not correct, a new one too common) is shown beside
    // its field instead of in a notice.
    meta: {
      operation: OPERATION,
      fieldErrors: ['newPassword', 'currentPassword'],
      invalidates: [queryKeys.accountSessions],
    },
  });
}
