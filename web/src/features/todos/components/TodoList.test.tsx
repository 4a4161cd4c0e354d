import type { Group, Todo } from '@tally/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from '#web/lib/commands';
import { fakeBackend, json, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const work: Group = { id: 1, name: 'Work', color: '#3B82F6', version: 1 };

/**
 * `n` todos, the newest (highest id) first on screen, every other in Work; with `completed`,
 * every third completed (they gather in the Completed part, after the open ones).
 */
const many = (n: number, completed = false): Todo[] =>
  Array.from({ length: n }, (_, i) =>
    makeTodo({
      id: i + 1,
      title: `Todo ${i + 1}`,
      completed: completed && i % 3 === 0,
      groupId: i % 2 === 0 ? work.id : null,
    }),
  );

const list = () => screen.getByRole('list', { name: 'Todos' });
const rows = () => within(list()).getAllByRole('listitem');
const row = (title: string) =>
  screen.getByRole('button', { name: title }).closest('li') as HTMLElement;

/** jsdom lays nothing out: rows are 60 px high here, so the list has a screen's worth to show. */
function layOutRows() {
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this instanceof HTMLLIElement && this.dataset.index !== undefined ? 60 : 0;
  });
}

beforeAll(async () => {
  await import('./TodosPage');
});

beforeEach(() => {
  storeSession('alice');
});

describe('/todos: a long list', () => {
  it('shows the first page at once with the counts of all todos, then the rest', async () => {
    layOutRows();
    let releaseRest: () => void = () => undefined;
    const rest = new Promise<void>((resolve) => {
      releaseRest = resolve;
    });
    const newestFirst = many(120).reverse();
    const backend = fakeBackend(
      { todos: newestFirst, groups: [work] },
      {
        'GET /api/todos': async (call) => {
          if (call.search.has('cursor')) await rest;
          const start = Number(call.search.get('cursor') ?? 0);
          const end = start + Number(call.search.get('limit'));
          const response = json(newestFirst.slice(start, end));
          if (end < newestFirst.length) response.headers.set('x-next-cursor', String(end));
          return response;
        },
      },
    );
    renderApp('/todos');
    expect(await screen.findByRole('tab', { name: 'All (120)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Work (60)' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Todo 120' })).toBeInTheDocument();
    expect(rows()[0]).toHaveAttribute('aria-setsize', '50');
    expect(screen.getByText('Loading more todos...')).toBeInTheDocument();

    releaseRest();
    await waitFor(() => expect(rows()[0]).toHaveAttribute('aria-setsize', '120'));
    expect(screen.queryByText('Loading more todos...')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All (120)' })).toBeInTheDocument();
    const query = backend.calls.filter((call) => call.path === '/api/todos');
    expect(query.map((call) => call.search.toString())).toEqual([
      'limit=50',
      'limit=500&cursor=50',
    ]);
  });

  it('renders only the rows on screen, and keeps the focused row when j, k, End and Home move it', async () => {
    layOutRows();
    fakeBackend({ todos: many(300), groups: [work] });
    const { user } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Todo 300' });
    expect(rows().length).toBeLessThan(40);
    expect(rows()[0]).toHaveAttribute('aria-posinset', '1');
    expect(rows()[0]).toHaveAttribute('aria-setsize', '300');
    // One tab stop: the first row.
    expect(rows().filter((li) => li.tabIndex === 0)).toEqual([rows()[0]]);

    rows()[0]?.focus();
    await user.keyboard('jjj');
    expect(row('Todo 297')).toHaveFocus();
    await user.keyboard('k{ArrowDown}{ArrowDown}');
    expect(row('Todo 296')).toHaveFocus();
    expect(row('Todo 296')).toHaveAttribute('tabindex', '0');

    // The last row is far below the screen: it is rendered because it has the focus.
    await user.keyboard('{End}');
    expect(row('Todo 1')).toHaveFocus();
    expect(row('Todo 1')).toHaveAttribute('aria-posinset', '300');
    expect(rows().length).toBeLessThan(41);
    await user.keyboard('{Home}');
    expect(row('Todo 300')).toHaveFocus();
  });
});

describe('/todos: row keys', () => {
  const todos = [
    makeTodo({ id: 1, title: 'Older' }),
    makeTodo({ id: 2, title: 'Newer', description: 'Details' }),
  ];

  it('Space completes, e edits, Delete and # ask to delete; never while typing in a field', async () => {
    const backend = fakeBackend({ todos });
    const { user } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Newer' });
    row('Newer').focus();
    await user.keyboard(' ');
    expect(screen.getByRole('checkbox', { name: 'Newer' })).toBeChecked();
    await waitFor(() =>
      expect(
        backend.calls.some((call) => call.method === 'PUT' && call.path === '/api/todos/2'),
      ).toBe(true),
    );

    await user.keyboard('j{Delete}');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Delete' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete "Older"?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    row('Older').focus();
    await user.keyboard('#');
    expect(await screen.findByRole('dialog', { name: 'Confirm Delete' })).toBeInTheDocument();
    await user.keyboard('{Escape}');

    row('Older').focus();
    await user.keyboard('e');
    const form = await screen.findByRole('form', { name: 'Edit todo Older' });
    const title = within(form).getByLabelText('Title');
    await user.click(title);
    // Typed letters are text: j, k, e, x and # do nothing else.
    await user.keyboard('{End} jkex#');
    expect(title).toHaveValue('Older jkex#');
    expect(title).toHaveFocus();
    expect(screen.queryByRole('dialog', { name: 'Confirm Delete' })).not.toBeInTheDocument();
  });
  it('Enter on a row opens its detail view; on the checkbox it does not', async () => {
    fakeBackend({ todos });
    const { user } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Newer' });
    screen.getByRole('checkbox', { name: 'Older' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    row('Newer').focus();
    await user.keyboard('{Enter}');
    const detail = await screen.findByRole('dialog', { name: 'Newer' });
    expect(detail).toHaveTextContent('Details');
    expect(screen.getByRole('checkbox', { name: 'Newer' })).not.toBeChecked();
  });
});

describe('/todos: the Completed part', () => {
  it('gathers completed todos at the end, collapsed until opened, and remembers it', async () => {
    fakeBackend({ todos: many(6, true), groups: [work] });
    const { user, unmount } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Todo 6' });
    const toggle = screen.getByRole('button', { name: 'Completed (2)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('checkbox', { name: 'Todo 4' })).not.toBeInTheDocument();
    expect(
      within(list())
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).labels?.[0]?.textContent),
    ).toEqual(['Todo 6', 'Todo 5', 'Todo 3', 'Todo 2']);

    // A todo completed while the list is on screen keeps its place (and its Undo).
    await user.click(screen.getByRole('checkbox', { name: 'Todo 5' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Todo 5' })).toBeChecked());
    expect(screen.getByRole('button', { name: 'Completed (2)' })).toBeInTheDocument();

    // The keyboard opens it: a button with aria-expanded.
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const done = screen.getByRole('list', { name: 'Completed todos' });
    expect(within(done).getByRole('checkbox', { name: 'Todo 4' })).toBeChecked();
    expect(within(done).getByRole('checkbox', { name: 'Todo 1' })).toBeChecked();

    unmount();
    renderApp('/todos');
    expect(await screen.findByRole('button', { name: 'Completed (3)' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(
      within(screen.getByRole('list', { name: 'Completed todos' })).getByRole('checkbox', {
        name: 'Todo 5',
      }),
    ).toBeChecked();
  });
});

describe('/todos: Hide completed', () => {
  it('hides completed rows but not their counts, and is remembered', async () => {
    window.localStorage.setItem('completedOpen', '1');
    fakeBackend({ todos: many(6, true), groups: [work] });
    const { user, unmount } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Todo 4' });
    const hide = screen.getByRole('switch', { name: 'Hide completed' });
    expect(hide).toHaveAttribute('aria-checked', 'false');
    await user.click(hide);
    expect(hide).toHaveAttribute('aria-checked', 'true');
    expect(screen.queryByRole('checkbox', { name: 'Todo 4' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Todo 1' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Todo 6' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All (6)' })).toBeInTheDocument();

    // Completing a todo while they are hidden takes it out of the list; the focus stays in the
    // list, on the row now in its place.
    row('Todo 6').focus();
    await user.keyboard(' ');
    await waitFor(() =>
      expect(screen.queryByRole('checkbox', { name: 'Todo 6' })).not.toBeInTheDocument(),
    );
    expect(row('Todo 5')).toHaveFocus();

    // The command palette flips it too.
    runCommand('toggleHideCompleted');
    expect(await screen.findByRole('checkbox', { name: 'Todo 4' })).toBeInTheDocument();
    expect(hide).toHaveAttribute('aria-checked', 'false');
    runCommand('toggleHideCompleted');
    await waitFor(() => expect(hide).toHaveAttribute('aria-checked', 'true'));

    unmount();
    renderApp('/todos');
    expect(await screen.findByRole('switch', { name: 'Hide completed' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(screen.queryByRole('checkbox', { name: 'Todo 4' })).not.toBeInTheDocument();
  });
});

describe('/todos: selection', () => {
  it('picks rows with their checkboxes, shift-click ranges and x', async () => {
    fakeBackend({ todos: many(6), groups: [work] });
    const { user } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Todo 6' });
    expect(screen.queryByRole('checkbox', { name: 'Select Todo 6' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Select' }));
    const bar = await screen.findByRole('toolbar', { name: 'Selected todos' });
    expect(bar).toHaveTextContent('0 selected');
    // One control per row: the completion box gives way to the selection box.
    expect(within(row('Todo 6')).getAllByRole('checkbox')).toHaveLength(1);
    expect(screen.queryByRole('checkbox', { name: 'Todo 6' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 6' }));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 3' }));
    await user.keyboard('{/Shift}');
    expect(bar).toHaveTextContent('4 selected');
    expect(screen.getByRole('checkbox', { name: 'Select Todo 4' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Todo 2' })).not.toBeChecked();

    row('Todo 2').focus();
    await user.keyboard('x');
    expect(screen.getByRole('checkbox', { name: 'Select Todo 2' })).toBeChecked();
    expect(bar).toHaveTextContent('5 selected');

    await user.click(within(bar).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('toolbar', { name: 'Selected todos' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select Todo 2' })).not.toBeInTheDocument();
  });

  it('x on a row turns selection mode on', async () => {
    fakeBackend({ todos: many(3) });
    const { user } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Todo 3' });
    row('Todo 3').focus();
    await user.keyboard('x');
    expect(await screen.findByRole('toolbar', { name: 'Selected todos' })).toHaveTextContent(
      '1 selected',
    );
    expect(screen.getByRole('checkbox', { name: 'Select Todo 3' })).toBeChecked();
  });

  it('offers Complete for open picks and Reopen for done ones, both for a mix', async () => {
    fakeBackend({ todos: [...many(2), makeTodo({ id: 3, title: 'Todo 3', completed: true })] });
    const { user } = renderApp('/todos');
    // The done todo waits in the collapsed Completed part.
    await user.click(await screen.findByRole('button', { name: 'Completed (1)' }));
    await user.click(screen.getByRole('button', { name: 'Select' }));
    const bar = await screen.findByRole('toolbar', { name: 'Selected todos' });
    const offered = () =>
      ['Complete', 'Reopen'].filter((name) => within(bar).queryByRole('button', { name }));
    expect(offered()).toEqual(['Complete']);
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 3' }));
    expect(offered()).toEqual(['Reopen']);
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 2' }));
    expect(offered()).toEqual(['Complete', 'Reopen']);
  });

  it('completes, moves and deletes the picked rows in one call each', async () => {
    const backend = fakeBackend({ todos: many(6), groups: [work] });
    const { user } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Todo 6' });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    const bar = await screen.findByRole('toolbar', { name: 'Selected todos' });
    expect(within(bar).getByRole('button', { name: 'Complete' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 6' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 5' }));

    await user.click(within(bar).getByRole('button', { name: 'Complete' }));
    await waitFor(() => expect(row('Todo 6')).toHaveTextContent('Completed'));
    expect(row('Todo 5')).toHaveTextContent('Completed');
    expect(await screen.findByText('2 todos completed')).toBeInTheDocument();
    const bulkCalls = () =>
      backend.calls.filter((call) => call.path === '/api/todos/bulk').map((call) => call.body);
    // Each with the version the row showed: a todo changed elsewhere meanwhile is a 412.
    expect(bulkCalls()).toEqual([
      { ids: [6, 5], action: 'complete', versions: { '6': 1, '5': 1 } },
    ]);
    expect(bar).toHaveTextContent('0 selected');
    // Undo reopens what was completed.
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(row('Todo 6')).not.toHaveTextContent('Completed'));
    expect(row('Todo 5')).not.toHaveTextContent('Completed');
    expect(bulkCalls()[1]).toEqual({ ids: [5, 6], action: 'reopen' });

    // Todo 3 is already in Work: only Todo 4 moves, and Undo moves only it back.
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 4' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 3' }));
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Move to group' }), 'Work');
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Work (4)' })).toBeInTheDocument());
    expect(bulkCalls()[2]).toEqual({
      ids: [4, 3],
      action: 'move',
      groupId: work.id,
      versions: { '4': 1, '3': 1 },
    });
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Work (3)' })).toBeInTheDocument());
    expect(bulkCalls()[3]).toEqual({ ids: [4], action: 'move', groupId: null });

    await user.click(within(bar).getByRole('button', { name: 'Select all' }));
    expect(bar).toHaveTextContent('6 selected');
    await user.click(within(bar).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No todos yet. Add one above!')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All (0)' })).toBeInTheDocument();
    // Undo restores them all, in their places.
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'All (6)' })).toBeInTheDocument());
    await user.click(within(bar).getByRole('button', { name: 'Done' }));
    expect(
      within(list())
        .getAllByRole('checkbox')
        .map((box) => (box as HTMLInputElement).labels?.[0]?.textContent),
    ).toEqual(['Todo 6', 'Todo 5', 'Todo 4', 'Todo 3', 'Todo 2', 'Todo 1']);
  });

  it('adds and removes a tag, sets a priority and moves under a parent, each undone', async () => {
    const backend = fakeBackend({ todos: many(3) });
    const { user } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Todo 3' });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    const bar = await screen.findByRole('toolbar', { name: 'Selected todos' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 2' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 1' }));
    const bulkCalls = () =>
      backend.calls.filter((call) => call.path === '/api/todos/bulk').map((call) => call.body);

    // A name a tag cannot have is refused beside the field, and nothing is sent.
    const tag = within(bar).getByRole('textbox', { name: 'Tag' });
    await user.type(tag, 'two words');
    expect(within(bar).getByRole('alert')).toHaveTextContent(
      'A tag is 1-30 characters without spaces or commas.',
    );
    expect(within(bar).getByRole('button', { name: 'Add tag' })).toBeDisabled();
    await user.clear(tag);
    await user.type(tag, '@errand');
    await user.click(within(bar).getByRole('button', { name: 'Add tag' }));
    expect(await screen.findByText('2 todos tagged')).toBeInTheDocument();
    expect(bulkCalls()[0]).toEqual({
      ids: [2, 1],
      action: 'tag',
      tag: 'errand',
      versions: { '2': 1, '1': 1 },
    });
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(bulkCalls()[1]).toEqual({ ids: [1, 2], action: 'untag', tag: 'errand' }),
    );

    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 2' }));
    await user.selectOptions(within(bar).getByRole('combobox', { name: 'Set priority' }), 'High');
    expect(await screen.findByText('1 todo given a priority')).toBeInTheDocument();
    expect(bulkCalls()[2]).toEqual({
      ids: [2],
      action: 'priority',
      priority: 3,
      versions: { '2': 3 },
    });

    // The parent offered is any open todo but the picked ones.
    await user.click(screen.getByRole('checkbox', { name: 'Select Todo 1' }));
    const parent = within(bar).getByRole('combobox', { name: 'Move under a parent' });
    expect(within(parent).queryByRole('option', { name: 'Todo 1' })).not.toBeInTheDocument();
    await user.selectOptions(parent, 'Todo 3');
    expect(await screen.findByText('1 todo moved under a parent')).toBeInTheDocument();
    expect(bulkCalls()[3]).toEqual({
      ids: [1],
      action: 'parent',
      parentId: 3,
      versions: { '1': 3 },
    });
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(bulkCalls()[4]).toEqual({ ids: [1], action: 'parent', parentId: null }),
    );
  });
});

describe('/todos: subtasks', () => {
  it('a parent hides and shows its subtasks, and the list remembers it', async () => {
    fakeBackend({
      todos: [
        makeTodo({ id: 1, title: 'Paint the fence' }),
        makeTodo({ id: 2, title: 'Buy paint', parentId: 1 }),
        makeTodo({ id: 3, title: 'Sand it', parentId: 2 }),
        makeTodo({ id: 4, title: 'Other' }),
      ],
      groups: [work],
    });
    const { user, unmount } = renderApp('/todos');
    const subtasks = await screen.findByRole('button', { name: 'Subtasks of Paint the fence' });
    expect(subtasks).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('checkbox', { name: 'Sand it' })).toBeInTheDocument();
    await user.click(subtasks);
    expect(subtasks).toHaveAttribute('aria-expanded', 'false');
    // Its subtasks go, and theirs with them.
    expect(screen.queryByRole('checkbox', { name: 'Buy paint' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Sand it' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Other' })).toBeInTheDocument();

    unmount();
    const again = renderApp('/todos');
    const kept = await screen.findByRole('button', { name: 'Subtasks of Paint the fence' });
    expect(kept).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('checkbox', { name: 'Buy paint' })).not.toBeInTheDocument();
    await again.user.click(kept);
    expect(await screen.findByRole('checkbox', { name: 'Sand it' })).toBeInTheDocument();
  });
});
