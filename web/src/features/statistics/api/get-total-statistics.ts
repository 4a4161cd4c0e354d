import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** All-time counts. */
export const totalStatisticsQueryOptions = queryOptions({
  queryKey: queryKeys.statisticsTotal,
  queryFn: ({ signal }) => api.statistics.total({ operation: 'Load statistics', signal }),
});

export function useTotalStatistics() {
  return useQuery(totalStatisticsQueryOptions);
}
