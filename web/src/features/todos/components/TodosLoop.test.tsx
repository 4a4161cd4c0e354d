import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, json, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeAll(async () => {
  await import('./TodosPage');
});

beforeEach(() => {
  storeSession('alice');
  localStorage.removeItem('hideCompleted');
});

describe('/todos: the daily loop', () => {
  it('a click on the title opens the detail view and completes nothing', async () => {
    const { calls } = fakeBackend({
      todos: [makeTodo({ id: 1, title: 'Water plants', description: 'The ferns' })],
    });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Water plants' }));
    const detail = await screen.findByRole('dialog', { name: 'Water plants' });
    expect(screen.getByRole('checkbox', { name: 'Water plants' })).not.toBeChecked();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    // Every field is there to edit.
    const form = await within(detail).findByRole('form', { name: 'Edit todo Water plants' });
    expect(within(form).getByLabelText('Title')).toHaveValue('Water plants');
    expect(within(form).getByLabelText('Description')).toHaveValue('The ferns');
    await user.click(within(detail).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Water plants' })).toHaveFocus();
  });

  it('says a refused field beside it in the detail view and the inline edit, until it is edited', async () => {
    const refusal = () => json({ error: 'dueDate must be a real calendar date (YYYY-MM-DD)' }, 400);
    fakeBackend(
      { todos: [makeTodo({ id: 1, title: 'Water plants' })] },
      { 'PUT /api/todos/:id': refusal, 'PATCH /api/todos/:id': refusal },
    );
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Water plants' }));
    const detail = await screen.findByRole('dialog', { name: 'Water plants' });
    const form = await within(detail).findByRole('form', { name: 'Edit todo Water plants' });
    await user.type(within(form).getByLabelText('Title'), '!');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    const sentence = 'The due date must be a real calendar date (YYYY-MM-DD).';
    const date = within(form).getByLabelText('Due date');
    await waitFor(() => expect(date).toHaveAccessibleDescription(sentence));
    expect(screen.queryByRole('alert')).toBeNull();
    // Refused, the view stays open with what was typed.
    expect(within(form).getByLabelText('Title')).toHaveValue('Water plants!');
    await user.type(within(form).getByLabelText('Title'), '!');
    expect(date).not.toHaveAccessibleDescription();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Edit Water plants' }));
    const inline = await screen.findByRole('form', { name: 'Edit todo Water plants' });
    // A Save with nothing changed sends nothing: change the title, for a call to refuse.
    await user.type(within(inline).getByLabelText('Title'), '?');
    await user.click(within(inline).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(inline).getByLabelText('Due date')).toHaveAccessibleDescription(sentence),
    );
  });

  it('Escape closes the new-todo form', async () => {
    fakeBackend({ todos: [] });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Add Todo' }));
    await user.click(await screen.findByLabelText('Title'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByLabelText('Title')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Add Todo' })).toHaveFocus();
  });

  it('with Hide completed on, a search says how many completed matches it hides', async () => {
    fakeBackend({
      todos: [
        makeTodo({ id: 1, title: 'Pay rent', completed: true }),
        makeTodo({ id: 2, title: 'Pay gas', completed: true }),
        makeTodo({ id: 3, title: 'Buy milk' }),
      ],
    });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('switch', { name: 'Hide completed' }));
    await user.type(screen.getByRole('searchbox'), 'pay');
    expect(
      await screen.findByText(
        '0 todos found; 2 completed matches are hidden (Hide completed is on)',
      ),
    ).toBeInTheDocument();
  });

  it('the quick add line saves on Enter and stays focused for the next', async () => {
    const { calls } = fakeBackend({ todos: [] });
    const { user } = renderApp('/todos');
    const field = await screen.findByRole('combobox', { name: 'Quick add a todo' });
    expect(field).toHaveAttribute('placeholder', expect.stringContaining('#Home @bills p1'));
    await user.click(field);
    await user.keyboard('Buy milk @shop p2{Enter}');
    expect(await screen.findByRole('checkbox', { name: 'Buy milk' })).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect(field).toHaveFocus();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      title: 'Buy milk',
      tags: ['shop'],
      priority: 2,
    });
    await user.keyboard('{Escape}');
    expect(field).not.toHaveFocus();
  });
});
