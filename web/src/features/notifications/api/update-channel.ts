import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Channel, UpdateChannelBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Change channel failed`;

/** Changes a channel (turning it on or off, among others). */
export function useUpdateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateChannelBody }) =>
      api.notifications.update({ params: { id }, body, operation: OPERATION }),
    onSuccess: (changed) => {
      queryClient.setQueryData<Channel[]>(queryKeys.notificationChannels, (channels) =>
        channels?.map((channel) => (channel.id === changed.id ? changed : channel)),
      );
    },
    meta: { operation: OPERATION },
  });
}
