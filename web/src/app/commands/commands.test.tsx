import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const work = { id: 1, name: 'Work', color: '#3B82F6', version: 1 };
const todos = [
  makeTodo({ id: 1, title: 'Workshop notes', groupId: 1 }),
  makeTodo({ id: 2, title: 'Crème brûlée recipe' }),
];

beforeAll(async () => {
  // The lazy chunks (the screen, the palette, the sheet): loaded before the first render.
  await Promise.all([
    import('#web/features/todos/components/TodosPage'),
    import('./CommandPalette'),
    import('./ShortcutsSheet'),
  ]);
});

beforeEach(() => {
  storeSession('alice');
});

async function openTodos() {
  fakeBackend({ todos, groups: [work] });
  const app = renderApp('/todos');
  await screen.findByRole('list', { name: 'Todos' });
  return app;
}

describe('global shortcuts', () => {
  it('n opens the new-todo form with the focus in its title (the n is not typed)', async () => {
    const { user } = await openTodos();
    await user.keyboard('n');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    expect(title).toHaveFocus();
    expect(title).toHaveValue('');
  });

  it('/ focuses the search box; g s, g g and g t go to the screens', async () => {
    const { user } = await openTodos();
    await user.keyboard('/');
    expect(screen.getByRole('searchbox', { name: 'Search todos' })).toHaveFocus();
    await user.keyboard('{Escape}');

    await user.keyboard('gs');
    await waitFor(() => expect(window.location.pathname).toBe('/statistics'));
    await user.keyboard('gg');
    await waitFor(() => expect(window.location.pathname).toBe('/groups'));
    // g alone, then another key, goes nowhere.
    await user.keyboard('gx');
    await user.keyboard('t');
    expect(window.location.pathname).toBe('/groups');
    await user.keyboard('gt');
    await waitFor(() => expect(window.location.pathname).toBe('/todos'));
  });

  it('never fires while typing in a field, with a modifier held, or under a dialog', async () => {
    const { user } = await openTodos();
    const box = screen.getByRole('searchbox', { name: 'Search todos' });
    await user.click(box);
    await user.keyboard('n?gs/');
    expect(box).toHaveValue('n?gs/');
    expect(window.location.pathname).toBe('/todos');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New todo' })).not.toBeInTheDocument();

    await user.keyboard('{Escape}');
    await user.keyboard('{Alt>}n{/Alt}{Control>}n{/Control}');
    expect(screen.queryByRole('form', { name: 'New todo' })).not.toBeInTheDocument();

    // Under the Confirm Delete dialog, n and ? belong to it.
    await user.click(screen.getByRole('button', { name: 'Delete Workshop notes' }));
    await screen.findByRole('dialog', { name: 'Confirm Delete' });
    await user.keyboard('n?');
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New todo' })).not.toBeInTheDocument();
  });

  it('? shows every shortcut, the list keys too, and Escape gives the focus back', async () => {
    const { user } = await openTodos();
    const tab = screen.getByRole('tab', { name: 'All (2)' });
    tab.focus();
    await user.keyboard('?');
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const action of [
      'Open the command palette',
      'New todo',
      'Go to Groups',
      'Undo the last change',
      'Next todo',
      'Open the details',
      'Select or unselect',
    ]) {
      expect(within(sheet).getByText(action)).toBeInTheDocument();
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(tab).toHaveFocus();
  });
});

describe('command palette', () => {
  it('opens with Ctrl+K, even in a field, and runs the chosen command with Enter', async () => {
    const { user } = await openTodos();
    const box = screen.getByRole('searchbox', { name: 'Search todos' });
    await user.click(box);
    await user.keyboard('{Control>}k{/Control}');
    const input = await screen.findByRole('combobox', { name: 'Command or todo' });
    expect(input).toHaveFocus();
    expect(box).toHaveValue('');
    expect(input).toHaveAttribute('aria-expanded', 'true');

    await user.keyboard('bin');
    expect(screen.getByRole('option', { name: 'Trash' })).toBeInTheDocument();
    await user.clear(input);
    await user.keyboard('stat');
    const listbox = screen.getByRole('listbox', { name: 'Commands' });
    const options = within(listbox).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Statistics']);
    expect(input).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/statistics'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('moves with the arrows, switches the group filter, and Escape returns the focus', async () => {
    const { user } = await openTodos();
    const tab = screen.getByRole('tab', { name: 'All (2)' });
    tab.focus();
    await user.keyboard('{Meta>}k{/Meta}');
    const input = await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(tab).toHaveFocus();

    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('work');
    const listbox = screen.getByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Workshop notes', 'Work']);
    const active = () =>
      document.getElementById(
        screen
          .getByRole('combobox', { name: 'Command or todo' })
          .getAttribute('aria-activedescendant') ?? '',
      );
    expect(active()).toHaveTextContent('Workshop notes');
    await user.keyboard('{ArrowDown}');
    expect(active()).toHaveTextContent('Work');
    expect(active()).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(active()).toHaveTextContent('Workshop notes');
    await user.keyboard('{ArrowUp}{Enter}');
    expect(screen.getByRole('tab', { name: 'Work (1)' })).toHaveAttribute('aria-selected', 'true');
    expect(input).not.toBeInTheDocument();
  });

  it('finds a todo by its title, accents aside, and opens its detail view', async () => {
    const { user } = await openTodos();
    await user.click(screen.getByRole('tab', { name: 'Work (1)' }));
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('creme');
    const option = within(screen.getByRole('group', { name: 'Todos' })).getByRole('option');
    expect(option).toHaveTextContent('Crème brûlée recipe');
    await user.click(option);
    expect(await screen.findByRole('dialog', { name: 'Crème brûlée recipe' })).toBeInTheDocument();
    // The list stays as it was behind it: no search was typed for it.
    expect(screen.getByRole('searchbox', { name: 'Search todos' })).toHaveValue('');
    expect(screen.getByRole('tab', { name: 'Work (1)' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens a todo found from another screen in its detail view on /todos', async () => {
    fakeBackend({ todos, groups: [work] });
    const { user } = renderApp('/groups');
    await screen.findByRole('heading', { name: 'Manage Groups' });
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('workshop');
    // Off /todos no todo is held: the server's search finds it.
    const found = await screen.findByRole('group', { name: 'Todos' });
    await user.click(await within(found).findByRole('option'));
    expect(await screen.findByRole('dialog', { name: 'Workshop notes' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/todos');
  });

  it('opens the new-todo form from another screen', async () => {
    fakeBackend({ todos, groups: [work] });
    const { user } = renderApp('/groups');
    await screen.findByRole('heading', { name: 'Manage Groups' });
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('new todo{Enter}');
    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveFocus();
    expect(window.location.pathname).toBe('/todos');
  });

  it('offers Hide completed on the All view only, and flips the switch', async () => {
    const { user } = await openTodos();
    const toggle = screen.getByRole('switch', { name: 'Hide completed' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('completed{Enter}');
    expect(toggle).toHaveAttribute('aria-checked', 'true');

    await user.click(screen.getByRole('link', { name: 'Today' }));
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('completed');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(await screen.findByText('Nothing matches "completed"')).toBeInTheDocument();
  });

  it('knows tags and priorities: a todo shows them, a tag filters, a sort applies', async () => {
    const backend = fakeBackend({
      todos: [
        makeTodo({ id: 1, title: 'Call the bank', tags: ['finance', 'phone'], priority: 3 }),
        makeTodo({ id: 2, title: 'Water plants', tags: ['Home'] }),
      ],
    });
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('bank');
    expect(
      within(screen.getByRole('group', { name: 'Todos' })).getByRole('option'),
    ).toHaveTextContent('Call the bankHigh @finance @phone');
    await user.clear(screen.getByRole('combobox', { name: 'Command or todo' }));
    await user.keyboard('@home');
    const tag = within(screen.getByRole('group', { name: 'Filter' })).getByRole('option');
    expect(tag).toHaveTextContent('@Home');
    await user.click(tag);
    expect(screen.getByRole('searchbox')).toHaveValue('Home');
    expect(await screen.findByText('1 todo found')).toBeInTheDocument();

    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command or todo' });
    await user.keyboard('sort by priority{Enter}');
    await waitFor(() =>
      expect(
        backend.calls.find((call) => call.path === '/api/todos/sorts' && call.method === 'PUT')
          ?.body,
      ).toEqual({ view: 'all', sort: 'priority' }),
    );
    expect(screen.getByLabelText('Sort')).toHaveValue('priority');
  });
});
