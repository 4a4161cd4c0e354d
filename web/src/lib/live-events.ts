import { msg } from '@lingui/core/macro';
import type { LiveEvent } from '@tally/contract';
import { LIVE_HEARTBEAT_SECONDS } from '@tally/contract/constants';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { api } from './api';
import { tellLiveListeners } from './live-listeners';
import { queryKeys } from './query-keys';
import { TAB_ID } from './tab-id';

/**
 * Live updates (docs/decisions/061-live-updates.md): one tab per browser, the holder of a Web
 * Lock, reads GET /api/events and passes each event to the other tabs on a BroadcastChannel;
 * every tab refetches what the event touches. Events carry no content; an event names the tab
 * whose request made the change (`client`, lib/tab-id.ts), and that tab, whose cache already
 * holds its change, does not fetch its todos again. Nothing is sent in answer (no loops).
 */

type Message = { kind: 'event'; event: LiveEvent } | { kind: 'resync' };

const NAME = 'tally-live';
/** Nothing heard (not even a heartbeat) for this long: the stream is dead, reconnect. */
const STALL_MS = (2 * LIVE_HEARTBEAT_SECONDS + 5) * 1000;
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

function keysOf(event: LiveEvent): QueryKey[] {
  const { todos, trash, todoCounts, groups, statistics, todoSorts, savedFilters } = queryKeys;
  // This tab's own change: its mutation has put the answer in the cache (the todos, the sorts)
  // and refreshed the views; the rest is cheap and may depend on the server's counting.
  if ('client' in event && event.client === TAB_ID) {
    if (event.type === 'sorts.updated') return [];
    if (event.type.startsWith('todo.')) return [trash, todoCounts, statistics];
    if (event.type.startsWith('group.')) return [groups, todoCounts, statistics];
  }
  if (event.type === 'sorts.updated') return [todoSorts];
  if (event.type.startsWith('filter.')) return [savedFilters];
  // A reminder changes no data: its listener shows it (features/reminders).
  if (event.type === 'reminder.fired') return [];
  if (event.type.startsWith('todo.')) return [todos, trash, todoCounts, statistics];
  if (event.type.startsWith('group.')) return [groups, todos, todoCounts, statistics];
  return [todos, trash, todoCounts, groups, statistics];
}

function apply(queryClient: QueryClient, message: Message): void {
  // A change of this tab's own still in flight: refetching now could show the list without it
  // for a moment; its mutation refreshes what it touches when it settles, so look again later.
  if (queryClient.isMutating() > 0) {
    setTimeout(() => apply(queryClient, message), 300);
    return;
  }
  if (message.kind === 'resync') void queryClient.invalidateQueries();
  else {
    for (const queryKey of keysOf(message.event)) void queryClient.invalidateQueries({ queryKey });
    tellLiveListeners(message.event);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Reads one stream until it ends; `ready` once the server listens, `event` per change. */
async function readStream(
  signal: AbortSignal,
  ready: () => void,
  event: (event: LiveEvent) => void,
): Promise<void> {
  const stalled = new AbortController();
  const stop = AbortSignal.any([signal, stalled.signal]);
  let timer = setTimeout(() => stalled.abort(), STALL_MS);
  try {
    const body = await api.live.events({ operation: msg`Live updates failed`, signal: stop });
    const reader = body
      .pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
      .getReader();
    stop.addEventListener('abort', () => void reader.cancel().catch(() => undefined));
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      clearTimeout(timer);
      timer = setTimeout(() => stalled.abort(), STALL_MS);
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith('event: ready')) ready();
        else if (block.startsWith('data: ')) event(JSON.parse(block.slice(6)) as LiveEvent);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Holds a stream until `signal` aborts, reconnecting with backoff (1 s doubling to 30 s). */
async function holdStream(signal: AbortSignal, deliver: (message: Message) => void) {
  let failures = 0;
  let connected = false;
  while (!signal.aborted) {
    try {
      await readStream(
        signal,
        () => {
          failures = 0;
          // Changes made while this browser was not listening: fetch again what is shown.
          if (connected) deliver({ kind: 'resync' });
          connected = true;
        },
        (event) => deliver({ kind: 'event', event }),
      );
    } catch {
      // Offline, a server restarting, a stalled stream: try again below. A refused session
      // has been ended by the API client already, which stops this loop.
    }
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** failures);
    failures += 1;
    await sleep(delay * (0.5 + Math.random() / 2), signal);
  }
}

/** Starts live updates for the signed-in user; the returned function stops them. */
export function startLiveEvents(queryClient: QueryClient): () => void {
  const stop = new AbortController();
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(NAME);
  channel?.addEventListener('message', (message: MessageEvent<Message>) =>
    apply(queryClient, message.data),
  );
  const deliver = (message: Message) => {
    apply(queryClient, message);
    channel?.postMessage(message);
  };
  const hold = () => holdStream(stop.signal, deliver);
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // The next tab waiting for the lock takes over when the leader closes.
  if (locks && channel) void locks.request(NAME, { signal: stop.signal }, hold).catch(() => null);
  else void hold();
  return () => {
    stop.abort();
    channel?.close();
  };
}
