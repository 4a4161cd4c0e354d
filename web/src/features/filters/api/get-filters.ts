import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The user's saved filters, by position. */
const savedFiltersQueryOptions = queryOptions({
  queryKey: queryKeys.savedFilters,
  queryFn: ({ signal }) => api.filters.list({ operation: msg`Load filters failed`, signal }),
});

export function useSavedFilters() {
  return useQuery(savedFiltersQueryOptions);
}
