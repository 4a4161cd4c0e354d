import { QueryClient } from '@tanstack/react-query';

/**
 * Failures surface at once with SPEC.md section 8's message and a way to retry, rather than
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
