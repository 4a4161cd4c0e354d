import { msg } from '@lingui/core/macro';
import { expect, it } from 'vitest';
import { fakeBackend, json, makeTodo } from '#web/test/fake-api';
import { storeSession } from '#web/test/tokens';
import { flushOutbox, queueWrite } from './outbox';

it('sends a move queued after a completion of the same todo on the version the completion made', async () => {
  storeSession('alice');
  const backend = fakeBackend(
    { todos: [makeTodo({ id: 1, title: 'Water plants' })] },
    {
      // The server's move: refused (412) when the todo has another version than If-Match names.
      'POST /api/todos/:id/move': (call, { id }) => {
        const todo = backend.state.todos.find((found) => found.id === Number(id));
        if (!todo) return json({ error: 'Todo not found' }, 404);
        if (call.headers.get('if-match') !== `"${todo.version}"`) return json(todo, 412);
        const moved = { ...todo, position: 5, version: todo.version + 1 };
        backend.state.todos = backend.state.todos.map((found) => (found === todo ? moved : found));
        return json(moved);
      },
    },
  );
  // Both made offline on the todo as shown then, at version 1.
  await queueWrite({
    method: 'PATCH',
    path: '/api/todos/1',
    body: { completed: true },
    headers: { 'if-match': '"1"' },
    label: 'completing “Water plants”',
    operation: msg`Update todo failed`,
  });
  await queueWrite({
    method: 'POST',
    path: '/api/todos/1/move',
    body: { afterId: 2 },
    headers: { 'if-match': '"1"' },
    label: 'moving “Water plants”',
    operation: msg`Move todo failed`,
  });
  let sent = 0;
  await flushOutbox(() => void sent++);
  expect(sent).toBe(1);
  expect(backend.state.todos[0]).toMatchObject({ completed: true, position: 5, version: 3 });
  const ifMatches = backend.calls
    .filter((call) => call.method !== 'GET')
    .map((call) => [call.method, call.path, call.headers.get('if-match')]);
  expect(ifMatches).toEqual([
    ['PATCH', '/api/todos/1', '"1"'],
    ['POST', '/api/todos/1/move', '"2"'],
  ]);
});
