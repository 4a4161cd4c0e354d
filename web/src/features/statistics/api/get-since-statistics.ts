import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SinceStatistics } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { daysAgo } from '../../../lib/format';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/statistics/since?since=YYYY-MM-DD: counts from that local date on. */
export function fetchSinceStatistics(since: string, { signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<SinceStatistics>(`/api/statistics/since?since=${encodeURIComponent(since)}`, {
    operation: 'Load statistics',
    signal,
  });
}

export const sinceStatisticsQueryOptions = (since: string) =>
  queryOptions({
    queryKey: queryKeys.statisticsSince(since),
    queryFn: ({ signal }) => fetchSinceStatistics(since, { signal }),
  });

/**
 * Counts since `days` days ago. Each window is its own query, so the 7-day and 30-day results
 * never overwrite each other (DECISIONS.md item 3).
 */
export function useSinceStatistics(days: number) {
  return useQuery(sinceStatisticsQueryOptions(daysAgo(days)));
}
