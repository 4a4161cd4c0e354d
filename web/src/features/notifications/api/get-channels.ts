import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_CHANNELS_OPERATION = msg`Load notification channels failed`;

/** The user's channels, tokens masked. */
const channelsQueryOptions = queryOptions({
  queryKey: queryKeys.notificationChannels,
  queryFn: ({ signal }) => api.notifications.list({ operation: LOAD_CHANNELS_OPERATION, signal }),
});

export function useChannels() {
  return useQuery(channelsQueryOptions);
}
