import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_AUDIT_LOG_OPERATION = msg`Load audit log failed`;

/** The audit log of admin actions, newest first. */
const auditLogQueryOptions = queryOptions({
  queryKey: queryKeys.adminAuditLog,
  queryFn: ({ signal }) => api.admin.auditLog({ operation: LOAD_AUDIT_LOG_OPERATION, signal }),
  // Operator-only: a 403 will not turn into a 200 by asking again.
  retry: false,
});

export function useAuditLog() {
  return useQuery(auditLogQueryOptions);
}
