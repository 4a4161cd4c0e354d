import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Channel, CreateChannelBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Add channel failed`;

/** Adds a channel; a webhook's answer holds its signing secret, this once. */
export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateChannelBody) =>
      api.notifications.create({ body, operation: OPERATION }),
    onSuccess: ({ channel }) => {
      queryClient.setQueryData<Channel[]>(queryKeys.notificationChannels, (channels) => [
        ...(channels ?? []),
        channel,
      ]);
    },
    meta: { operation: OPERATION },
  });
}
