import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/**
 * Streaks, the heatmap, rhythms, lead time, on-time rate, groups and this week against last, of
 * the last `weeks` weeks in the browser's zone (the client sends it). Under the statistics key,
 * so every change to todos or groups marks it stale with the rest of the screen.
 */
const insightsQueryOptions = (weeks: number) =>
  queryOptions({
    queryKey: queryKeys.statisticsInsights(weeks),
    queryFn: ({ signal }) =>
      api.statistics.insights({ query: { weeks }, operation: msg`Load insights failed`, signal }),
  });

export function useInsights(weeks: number) {
  return useQuery(insightsQueryOptions(weeks));
}
