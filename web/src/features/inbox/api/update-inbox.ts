import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Inbox } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Change who may send failed`;

/** Takes mail only from the verified address, or from anyone who has the address. */
export function useUpdateInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (onlyFromMyAddresses: boolean) =>
      api.inbox.update({ operation: OPERATION, body: { onlyFromMyAddresses } }),
    onSuccess: (inbox) => queryClient.setQueryData<Inbox>(queryKeys.inbox, inbox),
    meta: { operation: OPERATION },
  });
}
