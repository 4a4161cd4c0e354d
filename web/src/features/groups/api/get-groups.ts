import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The user's groups, newest first. */
const groupsQueryOptions = queryOptions({
  queryKey: queryKeys.groups,
  queryFn: ({ signal }) => api.groups.list({ operation: 'Load groups', signal }),
});

export function useGroups() {
  return useQuery(groupsQueryOptions);
}
