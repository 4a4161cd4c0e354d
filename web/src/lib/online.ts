import { useSyncExternalStore } from 'react';

/**
 * Whether the app can reach the server (docs/product.md, Offline). Offline and unreachable are
 * one case: `offline` when the browser says it has no network; `unreachable` when it has one
 * but the server did not answer (connection refused, no route, the browser gave up) or a proxy
 * in front of it answered a load with 502, 503 or 504, and nothing has answered since
 * (lib/api-client.ts notes each answer). Either way the saved data stays on screen, lists wait
 * instead of failing, and todo changes are queued.
 */
type Connection = 'online' | 'offline' | 'unreachable';

let unreachable = false;
const listeners = new Set<() => void>();

/** Called by lib/api-client.ts with each answer (or its absence). */
export function setServerReachable(reachable: boolean): void {
  if (unreachable === !reachable) return;
  unreachable = !reachable;
  listeners.forEach((listener) => listener());
}

export function connection(): Connection {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'offline';
  return unreachable ? 'unreachable' : 'online';
}

/**
 * No way to the server now: the browser is offline, or the server did not answer. Writes are
 * then queued (lib/outbox.ts) rather than failing.
 */
export const isOffline = (): boolean => connection() !== 'online';

/** Calls `listener` whenever connection() may have changed. */
export function subscribeConnection(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function useConnection(): Connection {
  return useSyncExternalStore(subscribeConnection, connection, () => 'online');
}

export function useOffline(): boolean {
  return useConnection() !== 'online';
}
