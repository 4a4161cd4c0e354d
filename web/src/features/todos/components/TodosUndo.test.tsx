import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Group } from '@tally/contract';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const home: Group = { id: 2, name: 'Home', color: '#84CC16', version: 1 };

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

describe('/todos: Undo', () => {
  it('after a delete, Undo restores the todo from the trash in its place', async () => {
    const { calls } = fakeBackend({
      todos: [
        makeTodo({ id: 1, title: 'Older', created: '2026-03-01T10:00:00.000Z' }),
        makeTodo({ id: 2, title: 'Buy milk', created: '2026-03-02T10:00:00.000Z' }),
        makeTodo({ id: 3, title: 'Newer', created: '2026-03-03T10:00:00.000Z' }),
      ],
    });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Delete Buy milk' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(titles()).toEqual(['Newer', 'Older']));
    const toast = screen.getByText('Deleted "Buy milk"').closest('[aria-live="polite"]');
    expect(toast).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(titles()).toEqual(['Newer', 'Buy milk', 'Older']));
    expect(
      calls.some((call) => call.method === 'POST' && call.path === '/api/trash/2/restore'),
    ).toBe(true);
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('after a completion, Ctrl+Z reopens it', async () => {
    fakeBackend({ todos: [makeTodo({ id: 5, title: 'Water plants' })] });
    const { user } = renderApp('/todos');
    const box = await screen.findByRole('checkbox', { name: 'Water plants' });
    await user.click(box);
    expect(await screen.findByText('Completed "Water plants"')).toBeInTheDocument();
    expect(box).toBeChecked();
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Water plants' })).not.toBeChecked(),
    );
  });

  it('after a group change in the edit form, Undo moves it back', async () => {
    fakeBackend({ todos: [makeTodo({ id: 7, title: 'Fix tap' })], groups: [home] });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Edit Fix tap' }));
    const form = await screen.findByRole('form', { name: 'Edit todo Fix tap' });
    await user.selectOptions(within(form).getByRole('combobox', { name: /group/i }), 'Home');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Moved "Fix tap" to Home')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: /No Group \(1\)/ })).toBeInTheDocument(),
    );
  });

  it('after an edit of only the title, Undo puts the old title back', async () => {
    fakeBackend({ todos: [makeTodo({ id: 8, title: 'Fix tap' })], groups: [home] });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Edit Fix tap' }));
    const form = await screen.findByRole('form', { name: 'Edit todo Fix tap' });
    const title = within(form).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Fix the tap');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Renamed "Fix tap" to "Fix the tap"')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(titles()).toEqual(['Fix tap']));
  });

  it('after an edit of the title and the group, the toast names both and Undo reverts both', async () => {
    const { calls } = fakeBackend({
      todos: [makeTodo({ id: 9, title: 'Fix tap', description: 'Washer' })],
      groups: [home],
    });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Edit Fix tap' }));
    const form = await screen.findByRole('form', { name: 'Edit todo Fix tap' });
    const title = within(form).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Fix the tap');
    await user.selectOptions(within(form).getByRole('combobox', { name: /group/i }), 'Home');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Changed the title and group of "Fix the tap"'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(titles()).toEqual(['Fix tap']));
    const undo = calls.filter((call) => call.method === 'PUT').at(-1);
    // Only what the toast named goes back; the description was not part of the edit.
    expect(undo?.body).toMatchObject({ title: 'Fix tap', groupId: null, description: 'Washer' });
  });
});
