import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_DELIVERIES_OPERATION = msg`Load deliveries failed`;

const deliveriesQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.notificationDeliveries(id),
    queryFn: ({ signal }) =>
      api.notifications.deliveries({
        params: { id },
        operation: LOAD_DELIVERIES_OPERATION,
        signal,
      }),
  });

/** A channel's last 50 deliveries, newest first. */
export function useDeliveries(id: number) {
  return useQuery(deliveriesQueryOptions(id));
}
