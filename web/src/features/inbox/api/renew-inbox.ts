import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Inbox } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Make a new e-mail address failed`;

/** A new address: mail to the old one makes nothing from now on. */
export function useRenewInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.inbox.renew({ operation: OPERATION }),
    onSuccess: (inbox) => queryClient.setQueryData<Inbox>(queryKeys.inbox, inbox),
    meta: { operation: OPERATION },
  });
}
