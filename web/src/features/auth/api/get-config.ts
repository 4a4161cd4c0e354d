import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The public runtime settings (the Google client id). */
export const configQueryOptions = queryOptions({
  queryKey: queryKeys.config,
  queryFn: ({ signal }) => api.system.config({ operation: msg`Load settings failed`, signal }),
  staleTime: Infinity,
  // The screens go on without it (the forms stay offered), so it fails at once rather than wait
  // for the server as the lists do (lib/query-client.ts).
  retry: false,
});

export function useConfig() {
  return useQuery(configQueryOptions);
}
