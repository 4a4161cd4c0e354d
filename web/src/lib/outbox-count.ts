import { useSyncExternalStore } from 'react';

/**
 * How many offline writes wait to be sent, for the offline banner. Apart from lib/outbox.ts,
 * which is loaded only when needed (it brings IndexedDB code the first screen does without).
 */
let pending = 0;
const listeners = new Set<() => void>();

export function publishQueuedWrites(count: number): void {
  pending = count;
  listeners.forEach((listener) => listener());
}

export function useQueuedWrites(): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending,
    () => 0,
  );
}
