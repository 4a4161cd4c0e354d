import { msg } from '@lingui/core/macro';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** `days` daily records, newest first, zero-filled. */
const recentStatisticsQueryOptions = (days: number) =>
  queryOptions({
    queryKey: queryKeys.statisticsRecent(days),
    queryFn: ({ signal }) =>
      api.statistics.recent({
        query: { days },
        operation: msg`Load recent activity failed`,
        signal,
      }),
  });

/** Keeps showing the previous range while another one loads. */
export function useRecentStatistics(days: number) {
  return useQuery({ ...recentStatisticsQueryOptions(days), placeholderData: keepPreviousData });
}
