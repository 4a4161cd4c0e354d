import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Account, SetPreferencesBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Save preferences failed`;

/** Changes the preferences sent (time zone, language, first day of the week) on the account. */
export function useSetPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetPreferencesBody) =>
      api.account.setPreferences({ body, operation: OPERATION }),
    onSuccess: (preferences) =>
      queryClient.setQueryData<Account>(queryKeys.account, (account) =>
        account ? { ...account, ...preferences } : account,
      ),
    meta: { operation: OPERATION },
  });
}
