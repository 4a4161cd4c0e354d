import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The user's groups, newest first. */
const groupsQueryOptions = queryOptions({
  queryKey: queryKeys.groups,
  queryFn: ({ signal }) => api.groups.list({ operation: msg`Load groups failed`, signal }),
});

export function useGroups() {
  return useQuery(groupsQueryOptions);
}
