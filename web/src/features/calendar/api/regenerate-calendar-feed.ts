import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Make calendar address failed`;

/**
 * Makes the feed's address, or a new one (the old one stops working). The client sends this
 * browser's time zone, which the feed keeps for timed todos.
 */
export function useRegenerateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.calendar.regenerate({ operation: OPERATION }),
    onSuccess: (feed) =>
      queryClient.setQueryData<CalendarFeed | null>(queryKeys.calendarFeed, feed),
    meta: { operation: OPERATION },
  });
}
