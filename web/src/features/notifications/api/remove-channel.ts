import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Channel } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Remove channel failed`;

/** Removes a channel and its delivery log. */
export function useRemoveChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.notifications.remove({ params: { id }, operation: OPERATION }),
    onSuccess: (_, id) => {
      queryClient.setQueryData<Channel[]>(queryKeys.notificationChannels, (channels) =>
        channels?.filter((channel) => channel.id !== id),
      );
    },
    meta: { operation: OPERATION },
  });
}
