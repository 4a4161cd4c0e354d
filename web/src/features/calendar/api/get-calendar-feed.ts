import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const LOAD_CALENDAR_FEED_OPERATION = msg`Load calendar feed failed`;

/** The account's calendar feed (its path and zone), or null when it has none. */
const calendarFeedQueryOptions = queryOptions({
  queryKey: queryKeys.calendarFeed,
  queryFn: ({ signal }) => api.calendar.get({ operation: LOAD_CALENDAR_FEED_OPERATION, signal }),
});

export function useCalendarFeed() {
  return useQuery(calendarFeedQueryOptions);
}
