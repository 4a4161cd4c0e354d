import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Redeliver failed`;

/** Queues a delivery again; the log shows it pending until it goes out. */
export function useRedeliver(channelId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) =>
      api.notifications.redeliver({ params: { id: deliveryId }, operation: OPERATION }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.notificationDeliveries(channelId) }),
    meta: { operation: OPERATION },
  });
}
