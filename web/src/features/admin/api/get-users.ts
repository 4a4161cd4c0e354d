import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_USERS_OPERATION = msg`Load accounts failed`;

/** Every account, for the operator. */
const usersQueryOptions = queryOptions({
  queryKey: queryKeys.adminUsers,
  queryFn: ({ signal }) => api.admin.users({ operation: LOAD_USERS_OPERATION, signal }),
  // Operator-only: a 403 will not turn into a 200 by asking again.
  retry: false,
});

export function useAdminUsers() {
  return useQuery(usersQueryOptions);
}
