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
export function Providers({ children, live = false }: { children: ReactNode; live?: boolean }) {
  const [queryClient] = useState(createQueryClient);

  // Live updates while someone is signed in, restarted for each user (lib/live-events.ts).
  // Off in component tests, whose fake API has no event stream.
  // Loaded after the first screen, to keep it out of the initial JavaScript (bundle budgets).
  useEffect(() => {
    if (!live) return;
    let user = getSession().user;
    let stop: (() => void) | null = null;
    let closed = false;
    const restart = () => {
      stop?.();
      stop = null;
      if (!user) return;
      const started = user;
      void import('#web/lib/live-events').then(({ startLiveEvents }) => {
        if (!closed && user === started && !stop) stop = startLiveEvents(queryClient);
      });
    };
    restart();
    const unsubscribe = subscribeSession(() => {
      const next = getSession().user;
      if (next === user) return;
      user = next;
      restart();
    });
    return () => {
      closed = true;
      unsubscribe();
      stop?.();
    };
  }, [live, queryClient]);

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
