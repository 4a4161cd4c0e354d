import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { focusManager } from '@tanstack/react-query';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, json, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeAll(async () => {
  await import('./TodosPage');
});

beforeEach(() => {
  storeSession('alice');
});

afterEach(() => {
  vi.useRealTimers();
  focusManager.setFocused(undefined);
});

async function openDetail(user: UserEvent, title: string) {
  await user.click(await screen.findByRole('button', { name: title }));
  const detail = await screen.findByRole('dialog', { name: title });
  const form = await within(detail).findByRole('form', { name: `Edit todo ${title}` });
  return { detail, form };
}

type Backend = ReturnType<typeof fakeBackend>;

const patches = ({ calls }: Backend) =>
  calls
    .filter((call) => call.method === 'PATCH')
    .map((call) => ({ ifMatch: call.headers.get('if-match'), body: call.body }));

/** Another tab or device saves the todo: its fields change and its version goes up. */
function changeElsewhere({ state }: Backend, id: number, change: Record<string, unknown>) {
  const index = state.todos.findIndex((todo) => todo.id === id);
  const todo = state.todos[index];
  if (!todo) throw new Error(`No todo ${id}`);
  state.todos[index] = { ...todo, ...change, version: todo.version + 1 };
}

async function retitle(user: UserEvent, form: HTMLElement, title: string) {
  const field = within(form).getByLabelText('Title');
  await user.clear(field);
  await user.type(field, title);
  await user.tab();
}

describe('/todos: the detail view and edits made elsewhere', () => {
  it('sends each save with the version it started from', async () => {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const { form } = await openDetail(user, 'Water plants');
    await retitle(user, form, 'Water the plants');
    await waitFor(() => expect(backend.state.todos[0]?.title).toBe('Water the plants'));
    await user.type(within(form).getByLabelText('Description'), 'The ferns');
    await user.tab();
    await waitFor(() => expect(backend.state.todos[0]?.description).toBe('The ferns'));
    expect(patches(backend)).toEqual([
      { ifMatch: '"1"', body: { title: 'Water the plants' } },
      { ifMatch: '"2"', body: { description: 'The ferns' } },
    ]);
  });

  it('shows a title changed on both sides beside the field; Keep mine saves it and keeps their due date', async () => {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const { detail, form } = await openDetail(user, 'Water plants');
    changeElsewhere(backend, 1, { title: 'Water the ferns', dueDate: '2026-12-24' });
    await retitle(user, form, 'Water the palm');

    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Changed elsewhere while you edited: the title is now “Water the ferns”; yours is “Water the palm”.',
    );
    // What they typed stays in the field; the field they did not touch follows the change.
    expect(within(form).getByLabelText('Title')).toHaveValue('Water the palm');
    expect(within(form).getByLabelText('Due date')).toHaveValue('2026-12-24');
    expect(backend.state.todos[0]?.title).toBe('Water the ferns');
    // Closing does not settle it silently: the view stays open on the choice.
    await user.click(within(detail).getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(within(form).getByRole('alert')).toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(backend.state.todos[0]?.title).toBe('Water the palm'));
    expect(backend.state.todos[0]?.dueDate).toBe('2026-12-24');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(patches(backend)).toEqual([
      { ifMatch: '"1"', body: { title: 'Water the palm' } },
      { ifMatch: '"2"', body: { title: 'Water the palm' } },
    ]);
  });

  it('Take theirs drops the change and shows the todo as it is now', async () => {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const { detail, form } = await openDetail(user, 'Water plants');
    changeElsewhere(backend, 1, { title: 'Water the ferns', dueDate: '2026-12-24' });
    await retitle(user, form, 'Water the palm');

    const alert = await within(form).findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Take theirs' }));
    expect(within(form).getByLabelText('Title')).toHaveValue('Water the ferns');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(detail).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.state.todos[0]).toMatchObject({
      title: 'Water the ferns',
      dueDate: '2026-12-24',
    });
    expect(patches(backend)).toEqual([{ ifMatch: '"1"', body: { title: 'Water the palm' } }]);
  });

  it('editing the field again saves what was typed then', async () => {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const { form } = await openDetail(user, 'Water plants');
    changeElsewhere(backend, 1, { title: 'Water the ferns' });
    await retitle(user, form, 'Water the palm');
    await within(form).findByRole('alert');
    await retitle(user, form, 'Water the palm and the ferns');
    await waitFor(() => expect(backend.state.todos[0]?.title).toBe('Water the palm and the ferns'));
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a save of another field than the one changed elsewhere goes through, and both stay', async () => {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const { detail, form } = await openDetail(user, 'Water plants');
    changeElsewhere(backend, 1, { dueDate: '2026-12-24' });
    await retitle(user, form, 'Water the palm');
    await waitFor(() => expect(backend.state.todos[0]?.title).toBe('Water the palm'));
    expect(backend.state.todos[0]?.dueDate).toBe('2026-12-24');
    expect(within(form).getByLabelText('Due date')).toHaveValue('2026-12-24');
    expect(within(detail).queryByRole('alert')).not.toBeInTheDocument();
    expect(patches(backend)).toEqual([
      { ifMatch: '"1"', body: { title: 'Water the palm' } },
      { ifMatch: '"2"', body: { title: 'Water the palm' } },
    ]);
  });

  it('follows a change made elsewhere to a field not touched, and marks a touched one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const { form } = await openDetail(user, 'Water plants');
    const title = within(form).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Water the palm');
    changeElsewhere(backend, 1, { title: 'Water the ferns', description: 'In the hall' });
    // The lists are fetched again, as the live stream has them (here: the page shown again).
    act(() => {
      vi.setSystemTime(Date.now() + 60_000);
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() =>
      expect(within(form).getByLabelText('Description')).toHaveValue('In the hall'),
    );
    expect(title).toHaveValue('Water the palm');
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'the title is now “Water the ferns”; yours is “Water the palm”',
    );
    expect(patches(backend)).toEqual([]);
  });
});

describe('/todos: a change queued offline that meets a change made elsewhere', () => {
  /** The server behind a proxy that answers 502 while `down.value` is true. */
  function unreachableBackend() {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const down = { value: false };
    const answer = backend.fetchMock.getMockImplementation();
    if (!answer) throw new Error('The fake backend answers nothing');
    backend.fetchMock.mockImplementation(async (input, init) =>
      down.value ? json({ error: 'Bad Gateway' }, 502) : answer(input, init),
    );
    return { ...backend, down };
  }

  /** Renames the todo while the server cannot be reached, then it changes elsewhere too. */
  async function renameWhileUnreachable() {
    vi.useFakeTimers({ toFake: ['Date'] });
    const backend = unreachableBackend();
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    backend.down.value = true;
    vi.setSystemTime(Date.now() + 60_000);
    act(() => void window.dispatchEvent(new Event('visibilitychange')));
    await screen.findByText(/^The server cannot be reached/);
    const { form } = await openDetail(user, 'Water plants');
    const title = within(form).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Water the palm');
    await user.keyboard('{Escape}');
    await screen.findByText(/1 change will be sent when it answers/);
    changeElsewhere(backend, 1, { title: 'Water the ferns' });
    backend.down.value = false;
    const notice = await screen.findByText(
      'Changed elsewhere while you were offline: the title of “Water plants”. Your change was not sent.',
      undefined,
      { timeout: 15_000 },
    );
    return { backend, user, notice: notice.closest('[role]') as HTMLElement };
  }

  it('is not applied but shown; Keep mine sends it once on the version it is now', async () => {
    const { backend, user, notice } = await renameWhileUnreachable();
    expect(backend.state.todos[0]?.title).toBe('Water the ferns');
    await user.click(within(notice).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(backend.state.todos[0]?.title).toBe('Water the palm'));
    expect(patches(backend)).toEqual([
      { ifMatch: '"1"', body: { title: 'Water the palm' } },
      { ifMatch: '"2"', body: { title: 'Water the palm' } },
    ]);
  });

  it('Take theirs leaves the change made elsewhere, and the list shows it', async () => {
    const { backend, user, notice } = await renameWhileUnreachable();
    await user.click(within(notice).getByRole('button', { name: 'Take theirs' }));
    expect(await screen.findByRole('button', { name: 'Water the ferns' })).toBeInTheDocument();
    expect(backend.state.todos[0]?.title).toBe('Water the ferns');
    expect(patches(backend)).toEqual([{ ifMatch: '"1"', body: { title: 'Water the palm' } }]);
  });

  it('two changes queued one after the other both arrive, the second on the version the first made', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const backend = unreachableBackend();
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    backend.down.value = true;
    vi.setSystemTime(Date.now() + 60_000);
    act(() => void window.dispatchEvent(new Event('visibilitychange')));
    await screen.findByText(/^The server cannot be reached/);
    const { form } = await openDetail(user, 'Water plants');
    await user.type(within(form).getByLabelText('Description'), 'The ferns');
    await user.tab();
    await screen.findByText(/1 change will be sent when it answers/);
    const title = within(form).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Water the palm');
    await user.keyboard('{Escape}');
    await screen.findByText(/2 changes will be sent when it answers/);
    backend.down.value = false;
    await waitFor(() => expect(backend.state.todos[0]?.title).toBe('Water the palm'), {
      timeout: 15_000,
    });
    expect(backend.state.todos[0]?.description).toBe('The ferns');
    expect(patches(backend)).toEqual([
      { ifMatch: '"1"', body: { description: 'The ferns' } },
      { ifMatch: '"2"', body: { title: 'Water the palm' } },
    ]);
    expect(screen.queryByText(/Changed elsewhere/)).toBeNull();
  });
});

describe('/todos: completions and deletes queued offline carry their version', () => {
  /** The server behind a proxy that answers 502 while `down.value` is true. */
  async function goUnreachable(
    todo = makeTodo({ id: 1, title: 'Water plants' }),
    overrides: Parameters<typeof fakeBackend>[1] = {},
  ) {
    vi.useFakeTimers({ toFake: ['Date'] });
    const backend = fakeBackend({ todos: [todo] }, overrides);
    const down = { value: false };
    const answer = backend.fetchMock.getMockImplementation();
    if (!answer) throw new Error('The fake backend answers nothing');
    backend.fetchMock.mockImplementation(async (input, init) =>
      down.value ? json({ error: 'Bad Gateway' }, 502) : answer(input, init),
    );
    const { user } = renderApp('/todos');
    await screen.findByRole('list', { name: 'Todos' });
    down.value = true;
    vi.setSystemTime(Date.now() + 60_000);
    act(() => void window.dispatchEvent(new Event('visibilitychange')));
    await screen.findByText(/^The server cannot be reached/);
    return { backend, user, down };
  }

  const sent = ({ calls }: Backend, method: string) =>
    calls
      .filter((call) => call.method === method && call.path === '/api/todos/1')
      .map((call) => call.headers.get('if-match'));

  it('a completion replayed on a todo changed elsewhere is shown, not applied; Keep mine sends it once', async () => {
    const { backend, user, down } = await goUnreachable();
    await user.click(screen.getByRole('checkbox', { name: 'Water plants' }));
    await screen.findByText(/1 change will be sent when it answers/);
    changeElsewhere(backend, 1, { title: 'Water the ferns' });
    down.value = false;
    const text = await screen.findByText(
      'Changed elsewhere while you were offline: completing “Water plants”. Your change was not sent.',
      undefined,
      { timeout: 15_000 },
    );
    expect(backend.state.todos[0]?.completed).toBe(false);
    const notice = text.closest('[role]') as HTMLElement;
    await user.click(within(notice).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(backend.state.todos[0]?.completed).toBe(true));
    expect(backend.state.todos[0]?.title).toBe('Water the ferns');
    expect(sent(backend, 'PATCH')).toEqual(['"1"', '"2"']);
  });

  it('a skip made offline is sent once with the version it started from, and the row then moves on', async () => {
    const repeat = { every: 1, unit: 'day', from: 'due' } as const;
    // Days far from any run's today: the row names them by date, never "Today" or "Tomorrow".
    const plants = makeTodo({ id: 1, title: 'Water plants', dueDate: '2099-03-04', repeat });
    const skips: (string | null)[] = [];
    const { backend, user, down } = await goUnreachable(plants, {
      'POST /api/todos/:id/skip': (call) => {
        skips.push(call.headers.get('if-match'));
        const todo = backend.state.todos[0];
        if (!todo) return json({ error: 'Todo not found' }, 404);
        const skipped = { ...todo, dueDate: '2099-03-05', version: todo.version + 1 };
        backend.state.todos = [skipped];
        return json(skipped);
      },
    });
    await user.click(screen.getByRole('button', { name: 'Skip Water plants' }));
    expect(
      await screen.findByText('Water plants: skipped once the server answers.'),
    ).toBeInTheDocument();
    await screen.findByText(/1 change will be sent when it answers/);
    down.value = false;
    await waitFor(() => expect(backend.state.todos[0]?.dueDate).toBe('2099-03-05'), {
      timeout: 15_000,
    });
    expect(skips).toEqual(['"1"']);
    await waitFor(() =>
      expect(
        screen.getByRole('checkbox', { name: 'Water plants' }).closest('li'),
      ).toHaveTextContent(/5 Mar/),
    );
  });

  it('a delete replayed on a todo changed elsewhere is shown, not applied; Take theirs keeps it', async () => {
    const { backend, user, down } = await goUnreachable();
    await user.click(screen.getByRole('button', { name: 'Delete Water plants' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await screen.findByText(/1 change will be sent when it answers/);
    changeElsewhere(backend, 1, { description: 'In the hall' });
    down.value = false;
    const text = await screen.findByText(
      'Changed elsewhere while you were offline: deleting “Water plants”. Your change was not sent.',
      undefined,
      { timeout: 15_000 },
    );
    const notice = text.closest('[role]') as HTMLElement;
    await user.click(within(notice).getByRole('button', { name: 'Take theirs' }));
    expect(await screen.findByRole('button', { name: 'Water plants' })).toBeInTheDocument();
    expect(backend.state.todos[0]?.description).toBe('In the hall');
    expect(sent(backend, 'DELETE')).toEqual(['"1"']);
  });
});

describe('/todos: a change to the picked todos and edits made elsewhere', () => {
  it('changes nothing when one changed since it was picked, shows it, and goes on the second time', async () => {
    const backend = fakeBackend({
      todos: [makeTodo({ id: 1, title: 'Water plants' }), makeTodo({ id: 2, title: 'Buy milk' })],
    });
    const { user } = renderApp('/todos');
    await screen.findByRole('checkbox', { name: 'Water plants' });
    await user.click(screen.getByRole('button', { name: 'Select' }));
    const bar = await screen.findByRole('toolbar', { name: 'Selected todos' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Water plants' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Buy milk' }));
    changeElsewhere(backend, 1, { title: 'Water the ferns' });
    await user.click(within(bar).getByRole('button', { name: 'Complete' }));
    expect(
      await screen.findByText('Changed elsewhere meanwhile: the list shows it as it is now'),
    ).toBeInTheDocument();
    // The row shows the todo as it is now, still picked.
    expect(await screen.findByRole('checkbox', { name: 'Select Water the ferns' })).toBeChecked();
    expect(backend.state.todos.map((todo) => todo.completed)).toEqual([false, false]);
    await user.click(within(bar).getByRole('button', { name: 'Complete' }));
    await waitFor(() =>
      expect(backend.state.todos.map((todo) => todo.completed)).toEqual([true, true]),
    );
    expect(backend.state.todos[0]?.title).toBe('Water the ferns');
    const versions = backend.calls
      .filter((call) => call.path === '/api/todos/bulk')
      .map((call) => (call.body as { versions?: unknown }).versions);
    expect(versions).toEqual([
      { '1': 1, '2': 1 },
      { '1': 2, '2': 1 },
    ]);
  });
});

describe('/todos: the row and edits made elsewhere', () => {
  const puts = ({ calls }: Backend) =>
    calls
      .filter((call) => call.method === 'PUT')
      .map((call) => ({ ifMatch: call.headers.get('if-match'), body: call.body }));

  it('a completion does not put back a title changed elsewhere meanwhile', async () => {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const box = await screen.findByRole('checkbox', { name: 'Water plants' });
    changeElsewhere(backend, 1, { title: 'Water the ferns' });
    await user.click(box);
    await waitFor(() => expect(backend.state.todos[0]?.completed).toBe(true));
    expect(backend.state.todos[0]?.title).toBe('Water the ferns');
    expect(puts(backend)).toEqual([
      { ifMatch: '"1"', body: expect.objectContaining({ title: 'Water plants', completed: true }) },
      {
        ifMatch: '"2"',
        body: expect.objectContaining({ title: 'Water the ferns', completed: true }),
      },
    ]);
  });

  it("the row's edit does not overwrite a change made elsewhere without saying so", async () => {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Edit Water plants' }));
    const form = await screen.findByRole('form', { name: 'Edit todo Water plants' });
    changeElsewhere(backend, 1, { description: 'In the hall' });
    await user.type(within(form).getByLabelText('Title'), ' today');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Changed elsewhere meanwhile: the list shows it as it is now'),
    ).toBeInTheDocument();
    expect(backend.state.todos[0]).toMatchObject({
      title: 'Water plants',
      description: 'In the hall',
    });
    expect(patches(backend)).toEqual([{ ifMatch: '"1"', body: { title: 'Water plants today' } }]);
  });

  it("the row's second save sends only the fields changed, on the version it shows now", async () => {
    const backend = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Edit Water plants' }));
    const form = await screen.findByRole('form', { name: 'Edit todo Water plants' });
    changeElsewhere(backend, 1, { description: 'In the hall', dueDate: '2026-12-01' });
    await user.type(within(form).getByLabelText('Title'), ' today');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Changed elsewhere meanwhile: the list shows it as it is now');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(backend.state.todos[0]?.title).toBe('Water plants today'));
    // The description and the due date set elsewhere stay: the form never sent them.
    expect(backend.state.todos[0]).toMatchObject({
      description: 'In the hall',
      dueDate: '2026-12-01',
    });
    expect(patches(backend)).toEqual([
      { ifMatch: '"1"', body: { title: 'Water plants today' } },
      { ifMatch: '"2"', body: { title: 'Water plants today' } },
    ]);
    expect(puts(backend)).toEqual([]);
  });
});
