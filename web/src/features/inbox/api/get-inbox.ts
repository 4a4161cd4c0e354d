import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const LOAD_INBOX_OPERATION = msg`Load e-mail to task failed`;

/** The account's e-mail-to-task address (null when the server has no mailbox) and sender rule. */
const inboxQueryOptions = queryOptions({
  queryKey: queryKeys.inbox,
  queryFn: ({ signal }) => api.inbox.get({ operation: LOAD_INBOX_OPERATION, signal }),
});

export function useInbox() {
  return useQuery(inboxQueryOptions);
}
