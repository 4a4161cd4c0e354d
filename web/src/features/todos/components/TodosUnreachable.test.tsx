import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, json, makeTodo, networkFailure } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeAll(async () => {
  await import('./TodosPage');
});

beforeEach(() => {
  storeSession('alice');
});

/** How a server out of reach answers: not at all, or through a proxy in front of it. */
const failures = {
  'no answer': networkFailure,
  'a proxy 502': () => json({ error: 'Bad Gateway' }, 502),
  'a proxy 503': () => json({ error: 'Service Unavailable' }, 503),
  'a proxy 504': () => json({ error: 'Gateway Timeout' }, 504),
};

/** A backend whose every call fails as `failure` while `down.value` is true. */
function unreachableBackend(
  failure: () => Response,
  todos = [makeTodo({ id: 1, title: 'Pay rent' })],
) {
  const backend = fakeBackend({ todos });
  const down = { value: false };
  const answer = backend.fetchMock.getMockImplementation();
  if (!answer) throw new Error('The fake backend answers nothing');
  backend.fetchMock.mockImplementation(async (input, init) =>
    down.value ? failure() : answer(input, init),
  );
  return { ...backend, down };
}

/** The list's data goes stale and the tab comes back to the front: it is loaded again. */
function refetchOnReturn() {
  vi.setSystemTime(new Date(Date.now() + 60_000));
  act(() => {
    window.dispatchEvent(new Event('visibilitychange'));
  });
}

describe('/todos: a server out of reach', () => {
  it.each(Object.entries(failures))(
    'keeps the list on screen under "The server cannot be reached" (%s), with no error',
    async (_how, failure) => {
      const { down, fetchMock } = unreachableBackend(failure);
      renderApp('/todos');
      const list = await screen.findByRole('list', { name: 'Todos' });
      down.value = true;
      const loads = fetchMock.mock.calls.length;
      refetchOnReturn();
      await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(loads));
      expect(
        await screen.findByText(
          'The server cannot be reached: showing your saved data. Changes are kept and sent when it answers.',
        ),
      ).toBeInTheDocument();
      expect(within(list).getByRole('checkbox', { name: 'Pay rent' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByText('Loading...')).toBeNull();
    },
  );

  it('with nothing to show, says "Network error - check your connection" once; Retry loads the list once the server answers', async () => {
    const { down } = unreachableBackend(networkFailure);
    down.value = true;
    const { user } = renderApp('/todos');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Network error - check your connection');
    // The groups failed too: still one message, not one per list.
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
    expect(screen.getByText(/^The server cannot be reached/)).toBeInTheDocument();
    down.value = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('checkbox', { name: 'Pay rent' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/^The server cannot be reached/)).toBeNull());
  });

  it('queues a change made meanwhile and sends it once when the server answers again', async () => {
    const { down, calls, state } = unreachableBackend(() => json({ error: 'Bad Gateway' }, 502));
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    down.value = true;
    refetchOnReturn();
    await screen.findByText(/^The server cannot be reached/);
    await user.click(screen.getByRole('checkbox', { name: 'Pay rent' }));
    expect(
      await screen.findByText(
        'The server cannot be reached: showing your saved data. 1 change will be sent when it answers.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    down.value = false;
    // The server is asked again a few seconds later.
    await waitFor(() => expect(state.todos[0]?.completed).toBe(true), { timeout: 15_000 });
    await waitFor(() =>
      expect(screen.queryByText(/The server cannot be reached|Sending/)).toBeNull(),
    );
    const writes = calls.filter((call) => call.method !== 'GET' && call.path === '/api/todos/1');
    expect(writes.map((call) => [call.method, call.body])).toEqual([
      ['PATCH', { completed: true }],
    ]);
  });
});
