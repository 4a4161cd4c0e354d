import { useSyncExternalStore } from 'react';

/**
 * Whether the browser says it is online. `navigator.onLine` false is certain (no network at
 * all); true only means a network, so a write that still cannot reach the server fails as
 * usual rather than being queued (docs/product.md, Offline).
 */
export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function useOffline(): boolean {
  return useSyncExternalStore(subscribe, isOffline, () => false);
}
