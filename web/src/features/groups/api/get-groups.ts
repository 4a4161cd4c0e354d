import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Group } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/todo-groups: the user's groups, newest first. */
export function fetchGroups({ signal }: { signal?: AbortSignal } = {}): Promise<Group[]> {
  return apiRequest<Group[]>('/api/todo-groups', { operation: 'Load groups', signal });
}

export const groupsQueryOptions = queryOptions({
  queryKey: queryKeys.groups,
  queryFn: fetchGroups,
});

export function useGroups() {
  return useQuery(groupsQueryOptions);
}
