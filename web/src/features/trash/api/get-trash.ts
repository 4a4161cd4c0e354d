import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The deleted todos, most recently deleted first. */
const trashQueryOptions = queryOptions({
  queryKey: queryKeys.trash,
  queryFn: ({ signal }) => api.trash.list({ operation: msg`Load trash failed`, signal }),
});

export function useTrash() {
  return useQuery(trashQueryOptions);
}
