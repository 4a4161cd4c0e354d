import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_SESSIONS_OPERATION = msg`Load sessions failed`;

/** The account's open sessions (signed-in devices), newest first. */
const sessionsQueryOptions = queryOptions({
  queryKey: queryKeys.accountSessions,
  queryFn: ({ signal }) => api.account.sessions({ operation: LOAD_SESSIONS_OPERATION, signal }),
});

export function useSessions() {
  return useQuery(sessionsQueryOptions);
}
