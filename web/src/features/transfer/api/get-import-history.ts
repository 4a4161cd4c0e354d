import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const OPERATION = msg`Load import history failed`;

/** The account's imports, newest first, with their counts and whether they were undone. */
const importHistoryQueryOptions = queryOptions({
  queryKey: queryKeys.accountImports,
  queryFn: ({ signal }) => api.transfer.history({ operation: OPERATION, signal }),
});

export function useImportHistory() {
  return useQuery(importHistoryQueryOptions);
}
