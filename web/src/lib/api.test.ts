import { msg } from '@lingui/core/macro';
import { afterEach, expect, it, vi } from 'vitest';
import { routes } from '@tally/contract/routes';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { storeSession } from '#web/test/tokens';
import { api } from './api';
import { flushOutbox } from './outbox';

afterEach(() => vi.restoreAllMocks());

const goOffline = () => vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);

it('queues an offline-capable call while offline, answers what its caller expects, and sends it once online', async () => {
  storeSession('alice');
  const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
  const onLine = goOffline();
  const shown = await api.todos.patch({
    params: { id: 1 },
    body: { completed: true },
    headers: { 'if-match': '"1"' },
    operation: msg`Update todo failed`,
    offline: () => ({ result: 'shown meanwhile', label: 'completing “Water plants”' }),
  });
  expect(shown).toBe('shown meanwhile');
  expect(backend.calls.filter((call) => call.method !== 'GET')).toEqual([]);

  onLine.mockReturnValue(true);
  let sent = 0;
  await flushOutbox(() => void sent++);
  expect(sent).toBe(1);
  expect(backend.state.todos[0]).toMatchObject({ completed: true, version: 2 });
  const writes = backend.calls
    .filter((call) => call.method !== 'GET')
    .map((call) => [call.method, call.path, call.headers.get('if-match')]);
  expect(writes).toEqual([['PATCH', '/api/todos/1', '"1"']]);
});

it('queues the call its caller names instead, or nothing when told so', async () => {
  storeSession('alice');
  const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
  const onLine = goOffline();
  const put = { title: 'Water plants', completed: true };
  await api.todos.update({
    params: { id: 1 },
    body: put,
    operation: msg`Update todo failed`,
    offline: () => ({
      result: null,
      send: { route: routes.todos.patch, params: { id: 1 }, body: { completed: true } },
    }),
  });
  await api.todos.update({
    params: { id: 1 },
    body: put,
    operation: msg`Update todo failed`,
    offline: () => ({ result: null, send: null }),
  });
  onLine.mockReturnValue(true);
  await flushOutbox(() => undefined);
  const writes = backend.calls
    .filter((call) => call.method !== 'GET')
    .map((call) => [call.method, call.path, call.body]);
  expect(writes).toEqual([['PATCH', '/api/todos/1', { completed: true }]]);
});
