import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { fieldErrorOf } from '#web/lib/api-client';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = 'Change password';

/** Changes the password; the server ends every other session, so the list is reloaded. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      api.account.changePassword({ body, operation: OPERATION }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.accountSessions }),
    // A refused new password (too common) is shown beside its field instead of in a notice.
    onError: (error) => {
      if (!fieldErrorOf(error, 'newPassword')) reportMutationError(error, OPERATION);
    },
  });
}
