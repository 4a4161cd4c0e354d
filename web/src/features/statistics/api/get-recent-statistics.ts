import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DailyStatistic } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/statistics/recent?days=n: n daily records, newest first, zero-filled. */
export function fetchRecentStatistics(days: number, { signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<DailyStatistic[]>(`/api/statistics/recent?days=${days}`, {
    operation: 'Load recent activity',
    signal,
  });
}

export const recentStatisticsQueryOptions = (days: number) =>
  queryOptions({
    queryKey: queryKeys.statisticsRecent(days),
    queryFn: ({ signal }) => fetchRecentStatistics(days, { signal }),
  });

/** Keeps showing the previous range while another one loads. */
export function useRecentStatistics(days: number) {
  return useQuery({ ...recentStatisticsQueryOptions(days), placeholderData: keepPreviousData });
}
