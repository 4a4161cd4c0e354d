import { msg } from '@lingui/core/macro';
import type { LiveEvent } from '@tally/contract';
import { LIVE_CLIENT_HEADER } from '@tally/contract/constants';
import { defaultTodo } from '@tally/contract/todo-shape';
import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { startLiveEvents } from './live-events';
import { createQueryClient } from './query-client';
import { queryKeys } from './query-keys';
import { json, stubFetch } from '#web/test/fake-api';
import { storeSession } from '#web/test/tokens';

/** GET /api/events as the server writes it: the test pushes each block. */
function liveStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const push = (text: string) => controller.enqueue(encoder.encode(text));
  return {
    response: () =>
      new Response(body, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } }),
    ready: () => push('event: ready\ndata: {}\n\n'),
    send: (event: LiveEvent) => push(`data: ${JSON.stringify(event)}\n\n`),
  };
}

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

describe('live updates', () => {
  it("do not fetch the list again for this tab's own change, but do for another tab's", async () => {
    storeSession('alice');
    const todo = defaultTodo({ id: 1, title: 'Milk', created: '2026-03-01T12:00:00.000Z' });
    const stream = liveStream();
    const { calls } = stubFetch({
      'GET /api/events': () => stream.response(),
      'GET /api/todos': () => json([todo]),
      'PATCH /api/todos/:id': () => json({ ...todo, completed: true }),
    });
    const lists = () =>
      calls.filter((call) => call.method === 'GET' && call.path === '/api/todos').length;
    const queryClient = createQueryClient();
    // The list on screen: an invalidation refetches it.
    const shown = new QueryObserver(queryClient, {
      queryKey: queryKeys.todos,
      queryFn: () => api.todos.list({ query: {}, operation: msg`Load todos failed` }),
    });
    const unsubscribe = shown.subscribe(() => undefined);
    await vi.waitFor(() => expect(lists()).toBe(1));
    stop = startLiveEvents(queryClient);
    await vi.waitFor(() => expect(calls.some((call) => call.path === '/api/events')).toBe(true));
    stream.ready();

    // A local edit: its request names this tab, and its event comes back with that name.
    await api.todos.patch({
      params: { id: 1 },
      body: { completed: true },
      operation: msg`Update todo failed`,
    });
    const edit = calls.find((call) => call.method === 'PATCH');
    const tab = edit?.headers.get(LIVE_CLIENT_HEADER) ?? '';
    expect(tab).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    stream.send({ type: 'todo.updated', id: 1, client: tab });
    // Another tab's edit comes after it: once its refetch is done, that was the only one.
    stream.send({ type: 'todo.updated', id: 1, client: 'another-tab-0123' });
    await vi.waitFor(() => expect(lists()).toBeGreaterThan(1));
    await vi.waitFor(() => expect(shown.getCurrentResult().isFetching).toBe(false));
    expect(lists()).toBe(2);
    unsubscribe();
  });
});
