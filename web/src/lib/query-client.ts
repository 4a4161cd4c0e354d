import { onlineManager, QueryClient } from '@tanstack/react-query';
import { isOffline } from './online';

/**
 * Failures surface at once with their message (docs/product.md, Errors) and a Retry, rather than
 * after silent retries; data counts as fresh for 30 s. Offline, queries wait (showing the saved
 * data) and refetch when the network is back; changes still run, so that the todos' own calls
 * can queue them (lib/outbox.ts) instead of waiting unseen.
 */
export function createQueryClient(): QueryClient {
  // TanStack Query counts itself online until an 'offline' event, which a page loaded without
  // network never gets: its saved data would be refetched at once, and the failure shown instead.
  onlineManager.setOnline(!isOffline());
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000 },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
