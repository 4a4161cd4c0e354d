import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountSession } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`End session failed`;

/** Ends one session (another device): it leaves the list. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.account.endSession({ params: { id }, operation: OPERATION }),
    onSuccess: (_, id) => {
      queryClient.setQueryData<AccountSession[]>(queryKeys.accountSessions, (sessions) =>
        sessions?.filter((session) => session.id !== id),
      );
    },
    meta: { operation: OPERATION },
  });
}
