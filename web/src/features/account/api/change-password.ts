import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { fieldErrorOf } from '#web/lib/api-client';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';
import { setPasswordChangeRequired } from '#web/lib/session-store';

const OPERATION = 'Change password';

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
    meta: { invalidates: [queryKeys.accountSessions] },
    // A refused new password (too common) is shown beside its field instead of in a notice.
    onError: (error) => {
      if (!fieldErrorOf(error, 'newPassword')) reportMutationError(error, OPERATION);
    },
  });
}
