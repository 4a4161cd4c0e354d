import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The public runtime settings (the Google client id). */
export const configQueryOptions = queryOptions({
  queryKey: queryKeys.config,
  queryFn: ({ signal }) => api.system.config({ operation: 'Load settings', signal }),
  staleTime: Infinity,
});

export function useConfig() {
  return useQuery(configQueryOptions);
}
