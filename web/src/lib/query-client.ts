import { QueryClient } from '@tanstack/react-query';

/**
 * Failures surface at once with their message (docs/product.md, Errors) and a Retry, rather than
 * after silent retries; data counts as fresh for 30 s.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
