import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { daysAgo } from '#web/lib/format';
import { queryKeys } from '#web/lib/query-keys';

/** Counts from a local date (YYYY-MM-DD) on. */
const sinceStatisticsQueryOptions = (since: string) =>
  queryOptions({
    queryKey: queryKeys.statisticsSince(since),
    queryFn: ({ signal }) =>
      api.statistics.since({ query: { since }, operation: msg`Load statistics failed`, signal }),
  });

/**
 * Counts since `days` days ago. Each window is its own query, so the 7-day and 30-day results
 * never overwrite each other (docs/product.md, Differences, item 3).
 */
export function useSinceStatistics(days: number) {
  return useQuery(sinceStatisticsQueryOptions(daysAgo(days)));
}
