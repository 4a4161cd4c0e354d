import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountSession } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`End other sessions failed`;

/** Ends every session but this browser's: only this device stays in the list. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.account.endOtherSessions({ operation: OPERATION }),
    onSuccess: () => {
      queryClient.setQueryData<AccountSession[]>(queryKeys.accountSessions, (sessions) =>
        sessions?.filter((session) => session.current),
      );
    },
    meta: { operation: OPERATION },
  });
}
