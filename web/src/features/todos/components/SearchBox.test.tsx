import { screen, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const todos = [
  makeTodo({ id: 1, title: 'Café with Zoë', groupId: 1 }),
  makeTodo({ id: 2, title: 'Buy milk', description: 'For the CAFE downstairs' }),
  makeTodo({ id: 3, title: 'Call Bob', groupId: 1 }),
];
const work = { id: 1, name: 'Work', color: '#3B82F6' };

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
    expect(screen.getByText('2 todos found')).toHaveAttribute('aria-live', 'polite');
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
    expect(screen.getByText('0 todos found')).toBeInTheDocument();
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
});
