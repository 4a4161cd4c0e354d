import type { Group } from '@tally/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, json, makeTodo, networkFailure } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const work: Group = { id: 1, name: 'Work', color: '#3B82F6', version: 1 };
const home: Group = { id: 2, name: 'Home', color: '#84CC16', version: 1 };

const todos = [
  makeTodo({ id: 11, title: 'Write report', groupId: 1, description: 'Quarterly numbers' }),
  makeTodo({ id: 12, title: 'Call Bob', groupId: 1, completed: true }),
  makeTodo({ id: 13, title: 'Buy milk' }),
];

const rows = () => within(screen.getByRole('list', { name: 'Todos' })).getAllByRole('listitem');

/** The titles in the list's order: the open part, then the Completed part. */
const titles = () =>
  screen
    .getAllByRole('list', { name: /^(Todos|Completed todos)$/ })
    .flatMap((list) => within(list).getAllByRole('checkbox'))
    .map((box) => (box as HTMLInputElement).labels?.[0]?.textContent);

beforeAll(async () => {
  // The screen's code is a lazy chunk (app/router.tsx): load it before the first render.
  await import('./TodosPage');
});

beforeEach(() => {
  storeSession('alice');
  // These tests look at completed rows too: the Completed part is open, as its user left it.
  window.localStorage.setItem('completedOpen', '1');
});

describe('/todos: list and filters', () => {
  it('hides a todo whose start date is later until Show later todos is on', async () => {
    fakeBackend({
      todos: [...todos, makeTodo({ id: 14, title: 'Plan holiday', startDate: '9999-01-01' })],
      groups: [work, home],
    });
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    expect(titles()).toEqual(['Buy milk', 'Write report', 'Call Bob']);
    await user.click(screen.getByRole('switch', { name: 'Show later todos' }));
    expect(titles()).toEqual(['Plan holiday', 'Buy milk', 'Write report', 'Call Bob']);
  });

  it('shows Loading... and then the todos newest first', async () => {
    fakeBackend({ todos, groups: [work, home] });
    renderApp('/todos');
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Todos' })).toBeInTheDocument();
    expect(titles()).toEqual(['Buy milk', 'Write report', 'Call Bob']);
    // Newest first in each part: the open todos, then the Completed part (open here).
    expect(rows()).toHaveLength(2);
  });

  it('counts per tab: All (n), No Group (n) and one tab per group, and filters by them', async () => {
    fakeBackend({ todos, groups: [work, home] });
    const { user } = renderApp('/todos');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'All (3)',
      'No Group (1)',
      'Home (0)',
      'Work (2)',
    ]);
    expect(screen.getByRole('tab', { name: 'All (3)' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'Work (2)' }));
    expect(screen.getByRole('tab', { name: 'Work (2)' })).toHaveAttribute('aria-selected', 'true');
    expect(titles()).toEqual(['Write report', 'Call Bob']);

    await user.click(screen.getByRole('tab', { name: 'No Group (1)' }));
    expect(titles()).toEqual(['Buy milk']);

    await user.click(screen.getByRole('tab', { name: 'Home (0)' }));
    expect(screen.getByText('No todos in this category')).toBeInTheDocument();
  });

  it('moves between tabs with the arrow keys (one tab stop)', async () => {
    fakeBackend({ todos, groups: [work] });
    const { user } = renderApp('/todos');
    const all = await screen.findByRole('tab', { name: 'All (3)' });
    expect(screen.getByRole('tab', { name: 'Work (2)' })).toHaveAttribute('tabindex', '-1');
    all.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'No Group (1)' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'No Group (1)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Work (2)' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'All (3)' })).toHaveFocus();
  });

  it('says "No todos yet. Add one above!" when there are none, and the category text elsewhere', async () => {
    fakeBackend({ todos: [], groups: [work] });
    const { user } = renderApp('/todos');
    expect(await screen.findByText('No todos yet. Add one above!')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'No Group (0)' }));
    expect(screen.getByText('No todos in this category')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Work (0)' }));
    expect(screen.getByText('No todos in this category')).toBeInTheDocument();
  });

  it('shows a row with title, description and a group badge in the group colour', async () => {
    fakeBackend({ todos, groups: [work] });
    renderApp('/todos');
    const checkbox = await screen.findByRole('checkbox', { name: 'Write report' });
    const row = checkbox.closest('li') as HTMLElement;
    expect(within(row).getByText('Quarterly numbers')).toBeInTheDocument();
    const badge = within(row).getByText('Work');
    expect(badge).toHaveStyle({ backgroundColor: '#3B82F6' });
    expect(within(row).getByRole('button', { name: 'Edit Write report' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Delete Write report' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Call Bob' })).toBeChecked();
  });

  it('renders user text as text, never as HTML', async () => {
    fakeBackend({ todos: [makeTodo({ id: 1, title: '<img src=x onerror=alert(1)>' })] });
    renderApp('/todos');
    expect(
      await screen.findByRole('checkbox', { name: '<img src=x onerror=alert(1)>' }),
    ).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
  });

  it('shows a failed load with a Retry', async () => {
    let fail = true;
    fakeBackend({ todos }, { 'GET /api/todos': () => (fail ? networkFailure() : json(todos)) });
    const { user } = renderApp('/todos');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Network error - check your connection',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Todos' })).toBeInTheDocument();
  });
});

describe('/todos: the new-todo form', () => {
  it('toggles with Add Todo / Cancel and has title (required), description (3 rows) and group', async () => {
    fakeBackend({ todos, groups: [work] });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Add Todo' }));

    const form = await screen.findByRole('form', { name: 'New todo' });
    expect(within(form).getByLabelText('Title')).toBeRequired();
    expect(within(form).getByLabelText('Title')).toHaveFocus();
    expect(within(form).getByLabelText(/Description/)).toHaveAttribute('rows', '3');
    const select = within(form).getByLabelText('Group');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['No Group', 'Work']);
    expect(select).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'New todo' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Todo' })).toBeInTheDocument();
  });

  it('starts on the active group filter and adds the new todo at the top', async () => {
    const { calls } = fakeBackend({ todos, groups: [work] });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('tab', { name: 'Work (2)' }));
    await user.click(screen.getByRole('button', { name: 'Add Todo' }));
    expect(screen.getByLabelText('Group')).toHaveValue('1');

    await user.type(await screen.findByLabelText('Title'), '  Plan sprint ');
    await user.click(screen.getByRole('button', { name: 'Create Todo' }));

    await waitFor(() => expect(titles()[0]).toBe('Plan sprint'));
    expect(screen.getByRole('tab', { name: 'Work (3)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All (4)' })).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      title: 'Plan sprint',
      description: null,
      groupId: 1,
    });
    expect(screen.queryByRole('form', { name: 'New todo' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Todo' })).toHaveFocus();
  });

  it('says a refused title beside the field, in words, until the title is edited', async () => {
    fakeBackend(
      { todos },
      { 'POST /api/todos': () => json({ error: 'title must be at most 200 characters' }, 400) },
    );
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Add Todo' }));
    const title = await screen.findByLabelText('Title');
    await user.type(title, 'x');
    await user.click(screen.getByRole('button', { name: 'Create Todo' }));

    await waitFor(() =>
      expect(title).toHaveAccessibleDescription('The title must be at most 200 characters.'),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(title, 'y');
    expect(title).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(/must be at most/)).toBeNull();
  });

  it('says a refused date of a quick-added todo under the quick add field', async () => {
    fakeBackend(
      { todos },
      {
        'POST /api/todos': () =>
          json({ error: 'dueDate must be a real calendar date (YYYY-MM-DD)' }, 400),
      },
    );
    const { user } = renderApp('/todos');
    const quick = await screen.findByLabelText('Quick add a todo', { selector: 'input' });
    await user.type(quick, 'Pay rent tomorrow{Enter}');
    await waitFor(() =>
      expect(quick).toHaveAccessibleDescription(
        'The due date must be a real calendar date (YYYY-MM-DD).',
      ),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(quick, '!');
    // Back to the example the field shows (its title), without the refusal.
    expect(quick).toHaveAccessibleDescription(
      'Quick add: Pay rent tomorrow 9:00 #Home @bills p1 every month',
    );
  });

  it('keeps the form and shows a dismissible message when creating fails', async () => {
    fakeBackend({ todos }, { 'POST /api/todos': () => json({}, 500) });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Add Todo' }));
    await user.type(await screen.findByLabelText('Title'), 'x');
    await user.click(screen.getByRole('button', { name: 'Create Todo' }));

    const notice = await screen.findByText('Server error - please try again later');
    expect(await screen.findByRole('form', { name: 'New todo' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(notice).not.toBeInTheDocument();
  });
});

describe('/todos: completing, editing, deleting', () => {
  it('checks at once and rolls back with a visible message when the update fails', async () => {
    let answer: (response: Response) => void = () => undefined;
    fakeBackend(
      { todos },
      {
        'PUT /api/todos/:id': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    );
    const { user } = renderApp('/todos');
    const checkbox = await screen.findByRole('checkbox', { name: 'Buy milk' });
    await user.click(checkbox);
    expect(checkbox).toBeChecked();

    answer(json({ error: 'boom' }, 500));
    await waitFor(() => expect(checkbox).not.toBeChecked());
    expect(screen.getByRole('alert')).toHaveTextContent('Server error - please try again later');
  });

  it('shows the check in the click itself, without springing back while the call is under way', async () => {
    fakeBackend({ todos, groups: [work] });
    renderApp('/todos');
    const checkbox = await screen.findByRole('checkbox', { name: 'Buy milk' });
    fireEvent.click(checkbox);
    expect(checkbox).toBeChecked();
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Buy milk' })).toBeChecked());
  });

  it('sends the whole todo with the new completed value and keeps the answer', async () => {
    const { calls, state } = fakeBackend({ todos });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('checkbox', { name: 'Call Bob' }));
    await waitFor(() => expect(state.todos.find((t) => t.id === 12)?.completed).toBe(false));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      title: 'Call Bob',
      description: null,
      groupId: 1,
      completed: false,
    });
    expect(screen.getByRole('checkbox', { name: 'Call Bob' })).not.toBeChecked();
  });

  it('edits inline and replaces the todo in place', async () => {
    const { calls } = fakeBackend({ todos, groups: [work] });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Edit Call Bob' }));

    const form = await screen.findByRole('form', { name: 'Edit todo Call Bob' });
    const title = within(form).getByLabelText('Title');
    expect(title).toBeRequired();
    expect(title).toHaveFocus();
    await user.clear(title);
    await user.type(title, 'Call Bobby');
    await user.selectOptions(within(form).getByLabelText('Group'), 'No Group');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(titles()).toEqual(['Buy milk', 'Write report', 'Call Bobby']));
    // Only the fields changed, with the version the row showed (decision 117).
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.body).toEqual({ title: 'Call Bobby', groupId: null });
    expect(patch?.headers.get('if-match')).toBe('"1"');
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    expect(screen.getByRole('button', { name: 'Edit Call Bobby' })).toHaveFocus();
  });

  it('cancels an edit with Cancel or Escape', async () => {
    const { calls } = fakeBackend({ todos });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Edit Buy milk' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: 'Edit todo Buy milk' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Buy milk' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Edit Buy milk' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Edit todo Buy milk' })).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });
});

describe('/todos: the Confirm Delete dialog', () => {
  it('asks with the title as text, and Cancel / Escape close it returning focus', async () => {
    fakeBackend({ todos: [makeTodo({ id: 1, title: '<b>Bold</b> "quoted"' })] });
    const { user } = renderApp('/todos');
    const deleteButton = await screen.findByRole('button', { name: /^Delete/ });
    await user.click(deleteButton);

    const dialog = screen.getByRole('dialog', { name: 'Confirm Delete' });
    expect(dialog).toHaveAccessibleDescription(
      'Are you sure you want to delete "<b>Bold</b> "quoted""?',
    );
    expect(dialog.querySelector('b')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(deleteButton).toHaveFocus();

    await user.click(deleteButton);
    expect(screen.getByRole('dialog', { name: 'Confirm Delete' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(deleteButton).toHaveFocus();
  });

  it('deletes on Delete and the todo vanishes', async () => {
    const { calls } = fakeBackend({ todos });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Delete Buy milk' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Confirm Delete' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(titles()).toEqual(['Write report', 'Call Bob']));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'All (2)' })).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/todos/13')).toBe(
      true,
    );
  });

  it('keeps the todo and shows a message when the delete fails', async () => {
    fakeBackend(
      { todos },
      { 'DELETE /api/todos/:id': () => json({ error: 'Todo not found' }, 404) },
    );
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Delete Buy milk' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Todo not found')).toBeInTheDocument();
    expect(titles()).toContain('Buy milk');
  });
});
