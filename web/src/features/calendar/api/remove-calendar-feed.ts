import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed } from '@tally/contract';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Turn off calendar feed failed`;

/** Turns the feed off: its address stops working. */
export function useRemoveCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.calendar.remove({ operation: OPERATION }),
    onSuccess: () => queryClient.setQueryData<CalendarFeed | null>(queryKeys.calendarFeed, null),
    meta: { operation: OPERATION },
  });
}
