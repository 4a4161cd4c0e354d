import { IsRestoringProvider, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { startLogoutRetry } from '#web/features/auth/api/logout';
import { startAuthMonitor } from '#web/lib/auth-monitor';
import { flushOutbox, loadOutbox } from '#web/lib/outbox';
import { createQueryClient } from '#web/lib/query-client';
import { forgetOthers, persistQueries, restoreQueries } from '#web/lib/query-persistence';
import { getSession, subscribeSession } from '#web/lib/session-store';

/**
 * React Query, the expiry monitor (checks at start, every 30 s, renews before expiry), a logout
 * that could not reach the server sent again, and a cache that is dropped whenever the signed-in
 * user changes, so no one sees another's data. The signed-in user's last data is restored from
 * IndexedDB before the first query runs and saved as it changes; their offline writes are sent
 * when the browser is online (docs/product.md, Offline).
 */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [restoring, setRestoring] = useState(() => getSession().user !== null);

  useEffect(() => startAuthMonitor(), []);
  useEffect(() => startLogoutRetry(), []);

  useEffect(() => {
    let user = getSession().user;
    let stopPersisting: (() => void) | null = null;
    let current = true;
    const refetch = () => void queryClient.invalidateQueries();
    const flush = () => void flushOutbox(refetch);

    const follow = async (next: string | null) => {
      await forgetOthers(next);
      await loadOutbox();
      if (next === null) return;
      await restoreQueries(queryClient, next).catch(() => undefined);
      if (!current || getSession().user !== next) return;
      stopPersisting = persistQueries(queryClient, next);
      flush();
    };

    void follow(user).finally(() => setRestoring(false));
    const unsubscribe = subscribeSession(() => {
      const next = getSession().user;
      if (next === user) return;
      user = next;
      stopPersisting?.();
      stopPersisting = null;
      queryClient.clear();
      void follow(next);
    });
    window.addEventListener('online', flush);
    return () => {
      current = false;
      unsubscribe();
      stopPersisting?.();
      window.removeEventListener('online', flush);
    };
  }, [queryClient]);

  return (
    <QueryClientProvider client={queryClient}>
      <IsRestoringProvider value={restoring}>{children}</IsRestoringProvider>
    </QueryClientProvider>
  );
}
