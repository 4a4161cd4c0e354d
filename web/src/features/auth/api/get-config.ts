import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@tally/contract';
import { apiRequest } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/config: the public runtime settings (Google client id and script URL). */
export function fetchConfig({ signal }: { signal?: AbortSignal } = {}): Promise<PublicConfig> {
  return apiRequest<PublicConfig>('/api/config', { operation: 'Load settings', signal });
}

export const configQueryOptions = queryOptions({
  queryKey: queryKeys.config,
  queryFn: fetchConfig,
  staleTime: Infinity,
});

export function useConfig() {
  return useQuery(configQueryOptions);
}
