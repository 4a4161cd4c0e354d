import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, json, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const todos = [
  makeTodo({ id: 1, title: 'Café with Zoë', groupId: 1 }),
  makeTodo({ id: 2, title: 'Buy milk', description: 'For the CAFE downstairs' }),
  makeTodo({ id: 3, title: 'Call Bob', groupId: 1 }),
];
const work = { id: 1, name: 'Work', color: '#3B82F6', version: 1 };

const titles = () =>
  within(screen.getByRole('list', { name: 'Todos' }))
    .getAllByRole('checkbox')
    .map((box) => (box as HTMLInputElement).labels?.[0]?.textContent);

beforeAll(async () => {
  await import('./TodosPage');
});

beforeEach(() => {
  storeSession('alice');
});

describe('/todos: search', () => {
  it('filters instantly, accent- and case-insensitive, newest first, and says how many', async () => {
    fakeBackend({ todos, groups: [work] });
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    const box = screen.getByRole('searchbox', { name: 'Search todos' });

    await user.type(box, 'cafe');
    expect(titles()).toEqual(['Buy milk', 'Café with Zoë']);
    expect(await screen.findByText('2 todos found')).toHaveAttribute('aria-live', 'polite');
    expect(window.location.search).toBe('?q=cafe');
    // The tab counts stay those of every todo.
    expect(screen.getByRole('tab', { name: 'All (3)' })).toBeInTheDocument();

    // The tab filter still applies.
    await user.click(screen.getByRole('tab', { name: 'Work (2)' }));
    expect(titles()).toEqual(['Café with Zoë']);
    expect(screen.getByText('1 todo found')).toBeInTheDocument();

    await user.clear(box);
    await user.type(box, 'ZOË CAF');
    expect(titles()).toEqual(['Café with Zoë']);

    await user.type(box, 'x');
    expect(screen.getByText('No todos match "ZOË CAFx"')).toBeInTheDocument();
    expect(await screen.findByText('0 todos found')).toBeInTheDocument();
  });

  it('keeps the search in the address, and Escape clears it and leaves the box', async () => {
    fakeBackend({ todos, groups: [work] });
    const { user } = renderApp('/todos?q=bob');
    await screen.findByRole('list', { name: 'Todos' });
    const box = screen.getByRole('searchbox', { name: 'Search todos' });
    expect(box).toHaveValue('bob');
    expect(titles()).toEqual(['Call Bob']);

    box.focus();
    await user.keyboard('{Escape}');
    expect(box).toHaveValue('');
    expect(box).not.toHaveFocus();
    expect(window.location.search).toBe('');
    expect(titles()).toEqual(['Call Bob', 'Buy milk', 'Café with Zoë']);
  });

  it('asks the server once typing pauses and adds the matches the browser does not hold', async () => {
    const onlyOnServer = makeTodo({ id: 99, title: 'Café crème, added elsewhere' });
    const asked: string[] = [];
    fakeBackend(
      { todos, groups: [work] },
      {
        'GET /api/todos': (call) => {
          const q = call.search.get('q');
          if (q === null) return json(todos);
          asked.push(q);
          return json(q.startsWith('cafe') ? [onlyOnServer, todos[0]] : []);
        },
      },
    );
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    await user.type(screen.getByRole('searchbox', { name: 'Search todos' }), 'Café');
    expect(await screen.findByText('3 todos found')).toBeInTheDocument();
    expect(titles()).toEqual(['Café crème, added elsewhere', 'Buy milk', 'Café with Zoë']);
    // One request for the settled words, normalised, not one per letter.
    expect(asked).toEqual(['cafe']);
  });

  it('ticks a match only the server found, in place', async () => {
    const onlyOnServer = makeTodo({ id: 99, title: 'Crème brûlée, added elsewhere' });
    const backend = fakeBackend(
      { todos: [...todos, onlyOnServer], groups: [work] },
      {
        'GET /api/todos': (call) =>
          call.search.get('q') === null
            ? json(todos)
            : json(backend.state.todos.filter((todo) => todo.id === 99)),
      },
    );
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    await user.type(screen.getByRole('searchbox', { name: 'Search todos' }), 'creme');
    const box = await screen.findByRole('checkbox', { name: 'Crème brûlée, added elsewhere' });
    await user.click(box);
    expect(box).toBeChecked();
    await waitFor(() => expect(backend.state.todos.find((t) => t.id === 99)?.completed).toBe(true));
    expect(screen.getByRole('checkbox', { name: 'Crème brûlée, added elsewhere' })).toBeChecked();
  });
});
