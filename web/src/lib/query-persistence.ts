import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { clearOffline, keepsOfflineData, readOffline, writeOffline } from './offline-store';

/**
 * The last data shown, kept per user in IndexedDB (docs/decisions/059-offline-and-installable.md)
 * so that a reload without network shows it again. Only answers the server gave are kept (the
 * last one, when a later load failed); a week-old copy, or one written by another version of the cached shapes, is
 * not used.
 */

/** Raised when the shape of a cached answer changes, so an older copy is not read as new. */
const CACHE_VERSION = 1;
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Writes are gathered: the changes of one task (a burst) cost one IndexedDB write, made as soon
 * as that task ends. Not later: a write started when the page is hidden or unloaded (which also
 * writes at once) can be cut off by the unload, so a reload 100 ms after a change could find a
 * copy without it (seen in the e2e "offline, a reload right after a change shows it").
 */
const SAVE_DELAY_MS = 0;

interface SavedQueries {
  version: number;
  savedAt: number;
  state: DehydratedState;
}

const cacheKey = (user: string) => `cache:${user.toLowerCase()}`;
const ownKey = (user: string) => (key: string) => key.endsWith(`:${user.toLowerCase()}`);

/** Puts the user's saved data into the cache, stale; anything fetched since stays (it is newer). */
export async function restoreQueries(client: QueryClient, user: string): Promise<void> {
  if (!keepsOfflineData()) return;
  const saved = await readOffline<SavedQueries>(cacheKey(user));
  if (!saved || saved.version !== CACHE_VERSION || Date.now() - saved.savedAt > MAX_AGE_MS) return;
  hydrate(client, saved.state);
  // Shown at once, but never trusted as fresh: with the network, every screen asks the server
  // again rather than show a copy that may predate the last changes (saved a second after them,
  // or made before another tab's or device's); offline, the refetch waits for the network.
  const restored = new Set(saved.state.queries.map((query) => query.queryHash));
  void client.invalidateQueries({ predicate: (query) => restored.has(query.queryHash) });
}

/**
 * Saves the cache (right after it changes, and when the page is hidden or left) until the
 * returned function is called.
 */
export function persistQueries(client: QueryClient, user: string): () => void {
  if (!keepsOfflineData()) return () => undefined;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    timer = null;
    const dehydrated = dehydrate(client, {
      shouldDehydrateQuery: (query) => query.state.data !== undefined,
    });
    // A load that failed since (a server error) keeps the data it had: it is saved as that data,
    // not as the failure, so the copy is never dropped for want of a good answer.
    const state: DehydratedState = {
      ...dehydrated,
      queries: dehydrated.queries.map((query) =>
        query.state.status === 'success'
          ? query
          : {
              ...query,
              state: { ...query.state, status: 'success', error: null, fetchFailureReason: null },
            },
      ),
    };
    const saved: SavedQueries = { version: CACHE_VERSION, savedAt: Date.now(), state };
    writeOffline(cacheKey(user), saved).catch(() => undefined);
  };
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' && event.type !== 'removed') return;
    timer ??= setTimeout(save, SAVE_DELAY_MS);
  });
  // A change still waiting for its write goes now: the page may not come back.
  const flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    save();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    unsubscribe();
    window.removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', onVisibility);
    if (timer !== null) clearTimeout(timer);
  };
}

/**
 * Forgets every other user's data (saved data and queued writes) in this browser, or everyone's
 * when no one is signed in: the next person on the browser never sees the last one's todos.
 */
export function forgetOthers(user: string | null): Promise<void> {
  return clearOffline(user ? ownKey(user) : () => false);
}
