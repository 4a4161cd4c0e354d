import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TotalStatistics } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/statistics/total: all-time counts. */
export function fetchTotalStatistics({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<TotalStatistics>('/api/statistics/total', {
    operation: 'Load statistics',
    signal,
  });
}

export const totalStatisticsQueryOptions = queryOptions({
  queryKey: queryKeys.statisticsTotal,
  queryFn: fetchTotalStatistics,
});

export function useTotalStatistics() {
  return useQuery(totalStatisticsQueryOptions);
}
