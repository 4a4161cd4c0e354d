import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeAll(async () => {
  await import('./TodosPage');
});

beforeEach(() => {
  storeSession('alice');
});

/** Opens the todo's detail view from its title; answers the view and its form. */
async function openDetail(user: UserEvent, title: string) {
  await user.click(await screen.findByRole('button', { name: title }));
  const detail = await screen.findByRole('dialog', { name: title });
  const form = await within(detail).findByRole('form', { name: `Edit todo ${title}` });
  return { detail, form };
}

const closed = () => waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

describe('/todos: the detail view keeps what is typed', () => {
  const ways = {
    Escape: async (user: UserEvent) => user.keyboard('{Escape}'),
    Close: async (user: UserEvent, detail: HTMLElement) =>
      user.click(within(detail).getByRole('button', { name: 'Close' })),
    'a click outside': async (user: UserEvent, detail: HTMLElement) => user.click(detail),
  };

  it.each(Object.entries(ways))(
    'closed by %s, it saves the description, sending that field alone',
    async (_way, close) => {
      const { calls, state } = fakeBackend({
        todos: [makeTodo({ id: 1, title: 'Water plants', description: 'The ferns' })],
      });
      const { user } = renderApp('/todos');
      const { detail, form } = await openDetail(user, 'Water plants');
      const field = within(form).getByLabelText('Description');
      await user.clear(field);
      await user.type(field, 'The ferns and the palm');
      await close(user, detail);
      await closed();
      expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
        { description: 'The ferns and the palm' },
      ]);
      expect(state.todos[0]?.description).toBe('The ferns and the palm');

      const reopened = await openDetail(user, 'Water plants');
      expect(within(reopened.form).getByLabelText('Description')).toHaveValue(
        'The ferns and the palm',
      );
    },
  );

  it('saves a field as the person leaves it, and Undo puts back the value it had', async () => {
    const { calls, state } = fakeBackend({
      todos: [makeTodo({ id: 1, title: 'Water plants', description: 'The ferns' })],
    });
    const { user } = renderApp('/todos');
    const { form } = await openDetail(user, 'Water plants');
    await user.type(within(form).getByLabelText('Description'), ' today');
    await user.tab();
    await waitFor(() => expect(state.todos[0]?.description).toBe('The ferns today'));
    expect(screen.getByRole('dialog', { name: 'Water plants' })).toBeInTheDocument();
    expect(
      await screen.findByText('Changed the description of "Water plants"'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(state.todos[0]?.description).toBe('The ferns'));
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { description: 'The ferns today' },
      { description: 'The ferns' },
    ]);
  });

  it('keeps a field changed elsewhere while the view was open', async () => {
    const { calls, state } = fakeBackend({
      todos: [makeTodo({ id: 1, title: 'Water plants' })],
    });
    const { user } = renderApp('/todos');
    const { form } = await openDetail(user, 'Water plants');
    // Another tab sets a due date meanwhile.
    state.todos[0] = makeTodo({ id: 1, title: 'Water plants', dueDate: '2026-12-24' });
    const title = within(form).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Water the plants');
    await user.keyboard('{Escape}');
    await closed();
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { title: 'Water the plants' },
    ]);
    expect(state.todos[0]).toMatchObject({ title: 'Water the plants', dueDate: '2026-12-24' });
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('closed with nothing changed, it sends nothing', async () => {
    const { calls } = fakeBackend({ todos: [makeTodo({ id: 1, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const { detail } = await openDetail(user, 'Water plants');
    await user.click(within(detail).getByRole('button', { name: 'Close' }));
    await closed();
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('with a blank title, stays open rather than close and lose it; Cancel puts back what it saved', async () => {
    const { calls, state } = fakeBackend({
      todos: [makeTodo({ id: 1, title: 'Water plants', description: 'The ferns' })],
    });
    const { user } = renderApp('/todos');
    const { detail, form } = await openDetail(user, 'Water plants');
    await user.type(within(form).getByLabelText('Description'), ' today');
    await user.click(within(form).getByLabelText('Title'));
    await waitFor(() => expect(state.todos[0]?.description).toBe('The ferns today'));
    await user.clear(within(form).getByLabelText('Title'));
    await user.click(within(detail).getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('dialog', { name: 'Water plants' })).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    await closed();
    await waitFor(() => expect(state.todos[0]?.description).toBe('The ferns'));
    expect(state.todos[0]?.title).toBe('Water plants');
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { description: 'The ferns today' },
      { description: 'The ferns' },
    ]);
  });

  it('Complete after typing saves the text first and completes the todo as saved', async () => {
    const { calls, state } = fakeBackend({
      todos: [makeTodo({ id: 1, title: 'Water plants', description: 'The ferns' })],
    });
    const { user } = renderApp('/todos');
    const { detail, form } = await openDetail(user, 'Water plants');
    await user.type(within(form).getByLabelText('Description'), ' today');
    await user.click(within(detail).getByRole('button', { name: 'Complete' }));
    await closed();
    await waitFor(() => expect(state.todos[0]?.completed).toBe(true));
    expect(state.todos[0]?.description).toBe('The ferns today');
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      description: 'The ferns today',
      completed: true,
    });
  });
});

describe('/todos: reminders in the detail view', () => {
  it('lists each reminder, removes one, adds another, and saves them as reminders', async () => {
    const { calls, state } = fakeBackend({
      todos: [
        makeTodo({
          id: 1,
          title: 'Flight',
          dueDate: '2026-12-04',
          dueTime: '09:30',
          reminders: [1440, 0],
        }),
      ],
    });
    const { user } = renderApp('/todos');
    const { detail, form } = await openDetail(user, 'Flight');
    expect(within(form).getByLabelText('Reminder')).toHaveValue('1440');
    expect(within(form).getByLabelText('Reminder 2')).toHaveValue('0');
    // Each offset once: the other row's is not offered.
    expect(
      within(within(form).getByLabelText('Reminder')).getByRole('option', {
        name: 'At the due time',
      }),
    ).toBeDisabled();

    await user.click(
      within(form).getByRole('button', { name: 'Remove reminder 1 (1 day before)' }),
    );
    // One left: it can be set to none, and there is no Remove button.
    expect(within(form).getByLabelText('Reminder')).toHaveValue('0');
    expect(within(form).queryByRole('button', { name: /^Remove reminder/ })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Add another reminder' }));
    await user.selectOptions(within(form).getByLabelText('Reminder 2'), '1 hour before');
    await user.keyboard('{Escape}');
    await closed();
    expect(detail).not.toBeInTheDocument();
    const patches = calls.filter((call) => call.method === 'PATCH').map((call) => call.body);
    expect(patches.length).toBeGreaterThan(0);
    for (const body of patches) expect(Object.keys(body as object)).toEqual(['reminders']);
    expect(patches.at(-1)).toEqual({ reminders: [60, 0] });
    expect(state.todos[0]?.reminders).toEqual([60, 0]);
  });

  it('offers at most five, and none without a time', async () => {
    fakeBackend({
      todos: [
        makeTodo({ id: 1, title: 'Dated', dueDate: '2026-12-04' }),
        makeTodo({
          id: 2,
          title: 'Five',
          dueDate: '2026-12-04',
          dueTime: '08:00',
          reminders: [120, 60, 30, 15, 0],
        }),
      ],
    });
    const { user } = renderApp('/todos');
    const dated = await openDetail(user, 'Dated');
    expect(within(dated.form).getByLabelText('Reminder')).toBeDisabled();
    expect(within(dated.form).getByLabelText('Reminder')).toHaveAccessibleDescription(
      'A reminder needs a time.',
    );
    await user.keyboard('{Escape}');
    await closed();
    const five = await openDetail(user, 'Five');
    expect(within(five.form).getByLabelText('Reminder 5')).toHaveValue('0');
    expect(within(five.form).queryByRole('button', { name: 'Add another reminder' })).toBeNull();
  });
});
