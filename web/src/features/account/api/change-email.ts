import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeEmailBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Change e-mail failed`;

/** Changes the e-mail address (unverified until its link is followed); answers the account. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeEmailBody) => api.account.changeEmail({ body, operation: OPERATION }),
    onSuccess: (account) => queryClient.setQueryData(queryKeys.account, account),
    // A refused address or password is shown beside its field instead of in a notice.
    meta: { operation: OPERATION, fieldErrors: ['email', 'currentPassword'] },
  });
}
