import type { LiveEvent } from '@tally/contract';

/**
 * Who else hears the live stream's events (lib/live-events.ts refetches the caches itself): a
 * module of its own, so a listener (the reminders' notices) does not load the stream's code.
 */
const listeners = new Set<(event: LiveEvent) => void>();

export function onLiveEvent(listener: (event: LiveEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function tellLiveListeners(event: LiveEvent): void {
  listeners.forEach((listener) => listener(event));
}
