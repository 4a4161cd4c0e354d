import { IsRestoringProvider, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { startLogoutRetry } from '#web/features/auth/api/logout';
import { startAuthMonitor } from '#web/lib/auth-monitor';
import { isOffline, subscribeConnection } from '#web/lib/online';
import { createQueryClient } from '#web/lib/query-client';
import { getSession, subscribeSession } from '#web/lib/session-store';

/**
 * React Query, the expiry monitor (checks at start, every 30 s, renews before expiry), a logout
 * that could not reach the server sent again, and a cache that is dropped whenever the signed-in
 * user changes, so no one sees another's data. The signed-in user's last data is restored from
 * IndexedDB before the first query runs and saved as it changes; their offline writes are sent
 * when the browser is online and the server answers (docs/product.md, Offline). That code is loaded on demand, beside
 * the first screen's, to keep IndexedDB's out of the first download.
 */
const loadOfflineCode = () =>
  Promise.all([import('#web/lib/query-persistence'), import('#web/lib/outbox')]);
let offlineLoad: ReturnType<typeof loadOfflineCode> | null = null;
const offlineCode = () =>
  (offlineLoad ??= loadOfflineCode().catch((error: unknown) => {
    offlineLoad = null;
    throw error;
  }));
// Asked for as the app starts rather than after its first render: a reload shows the saved
// data that much sooner, whether the server answers or not.
offlineCode().catch(() => undefined);

export function Providers({ children, live = false }: { children: ReactNode; live?: boolean }) {
  const [queryClient] = useState(createQueryClient);
  const [restoring, setRestoring] = useState(() => getSession().user !== null);

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
    let stopPersisting: (() => void) | null = null;
    let current = true;
    const refetch = () => void queryClient.invalidateQueries();
    const flush = () =>
      void offlineCode()
        .then(([, outbox]) => outbox.flushOutbox(refetch))
        .catch(() => undefined);

    const follow = async (next: string | null) => {
      const [{ forgetOthers, persistQueries, restoreQueries }, { loadOutbox }] =
        await offlineCode();
      // Three separate keys of the store: read and cleared side by side.
      await Promise.all([
        forgetOthers(next),
        loadOutbox(),
        next === null ? null : restoreQueries(queryClient, next).catch(() => undefined),
      ]);
      if (next === null) return;
      if (!current || getSession().user !== next) return;
      stopPersisting = persistQueries(queryClient, next);
      flush();
    };

    // Without the offline code (a failed download), the app works as before, without a copy.
    void follow(user)
      .catch(() => undefined)
      .finally(() => setRestoring(false));
    const unsubscribe = subscribeSession(() => {
      const next = getSession().user;
      if (next === user) return;
      user = next;
      stopPersisting?.();
      stopPersisting = null;
      queryClient.clear();
      void follow(next).catch(() => undefined);
    });
    // Back online, or the server answering again: the queued changes go.
    const stopFollowing = subscribeConnection(() => {
      if (!isOffline()) flush();
    });
    return () => {
      current = false;
      unsubscribe();
      stopPersisting?.();
      stopFollowing();
    };
  }, [queryClient]);

  return (
    <QueryClientProvider client={queryClient}>
      <IsRestoringProvider value={restoring}>{children}</IsRestoringProvider>
    </QueryClientProvider>
  );
}
