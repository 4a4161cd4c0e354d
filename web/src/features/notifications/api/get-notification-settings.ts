import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_NOTIFICATION_SETTINGS_OPERATION = msg`Load quiet hours and digest failed`;

/** Quiet hours, the daily digest's time, and the zone both are read in. */
const notificationSettingsQueryOptions = queryOptions({
  queryKey: queryKeys.notificationSettings,
  queryFn: ({ signal }) =>
    api.notifications.settings({ operation: LOAD_NOTIFICATION_SETTINGS_OPERATION, signal }),
});

export function useNotificationSettings() {
  return useQuery(notificationSettingsQueryOptions);
}
