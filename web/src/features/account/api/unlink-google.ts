import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Account } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Unlink Google failed`;

/** Unlinks Google; signing in then needs the password. */
export function useUnlinkGoogle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.account.unlinkGoogle({ operation: OPERATION }),
    onSuccess: () => {
      queryClient.setQueryData<Account>(queryKeys.account, (account) =>
        account ? { ...account, googleLinked: false } : account,
      );
    },
    meta: { operation: OPERATION },
  });
}
