import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** All-time counts. */
const totalStatisticsQueryOptions = queryOptions({
  queryKey: queryKeys.statisticsTotal,
  queryFn: ({ signal }) => api.statistics.total({ operation: msg`Load statistics failed`, signal }),
});

export function useTotalStatistics() {
  return useQuery(totalStatisticsQueryOptions);
}
