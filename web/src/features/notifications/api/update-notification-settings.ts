import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateNotificationSettingsBody } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Save quiet hours and digest failed`;

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateNotificationSettingsBody) =>
      api.notifications.updateSettings({ body, operation: OPERATION }),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.notificationSettings, settings),
    meta: { operation: OPERATION },
  });
}
