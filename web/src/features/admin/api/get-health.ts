import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_HEALTH_OPERATION = msg`Load server health failed`;

/** The server's health: database, Redis, mail, background jobs, last backup. */
const healthQueryOptions = queryOptions({
  queryKey: queryKeys.adminHealth,
  queryFn: ({ signal }) => api.admin.health({ operation: LOAD_HEALTH_OPERATION, signal }),
  // Operator-only: a 403 will not turn into a 200 by asking again.
  retry: false,
});

export function useAdminHealth() {
  return useQuery(healthQueryOptions);
}
