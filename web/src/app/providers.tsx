import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { startLogoutRetry } from '#web/features/auth/api/logout';
import { startAuthMonitor } from '#web/lib/auth-monitor';
import { createQueryClient } from '#web/lib/query-client';
import { getSession, subscribeSession } from '#web/lib/session-store';

/**
 * React Query, the expiry monitor (checks at start, every 30 s, renews before expiry), a logout
 * that could not reach the server sent again, and a cache that is dropped whenever the signed-in
 * user changes, so no one sees another's data.
 */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);

  useEffect(() => startAuthMonitor(), []);
  useEffect(() => startLogoutRetry(), []);

  useEffect(() => {
    let user = getSession().user;
    return subscribeSession(() => {
      const next = getSession().user;
      if (next !== user) {
        user = next;
        queryClient.clear();
      }
    });
  }, [queryClient]);

  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
