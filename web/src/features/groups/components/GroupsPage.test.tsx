import type { Group } from '@tally/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, json, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const work: Group = { id: 1, name: 'Work', color: '#EF4444', version: 1 };
const home: Group = { id: 2, name: 'Home', color: '#10B981', version: 1 };

const names = () =>
  within(screen.getByRole('list', { name: 'Groups' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent?.replace(/EditDelete$/, ''));

beforeAll(async () => {
  // The screen's code is a lazy chunk (app/router.tsx): load it before the first render.
  await import('./GroupsPage');
});

beforeEach(() => {
  storeSession('alice');
});

describe('/groups', () => {
  it('shows "Loading groups..." and then "No groups yet. Create one above."', async () => {
    let answer: (response: Response) => void = () => undefined;
    fakeBackend(
      {},
      {
        'GET /api/todo-groups': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    );
    renderApp('/groups');
    expect(await screen.findByRole('heading', { name: 'Manage Groups' })).toBeInTheDocument();
    expect(screen.getByText('Loading groups...')).toBeInTheDocument();
    answer(json([]));
    expect(await screen.findByText('No groups yet. Create one above.')).toBeInTheDocument();
  });

  it('has a required name and 8 swatches with #3B82F6 chosen, and creates at the top', async () => {
    const { calls } = fakeBackend({ groups: [work] });
    const { user } = renderApp('/groups');
    await screen.findByRole('list', { name: 'Groups' });

    const name = screen.getByLabelText('Group name');
    expect(name).toBeRequired();
    const swatches = within(screen.getByRole('group', { name: 'Color' })).getAllByRole('radio');
    expect(swatches.map((swatch) => (swatch as HTMLInputElement).value)).toEqual([
      '#3B82F6',
      '#EF4444',
      '#10B981',
      '#F59E0B',
      '#8B5CF6',
      '#EC4899',
      '#06B6D4',
      '#84CC16',
    ]);
    expect(screen.getByRole('radio', { name: 'Blue' })).toBeChecked();

    await user.type(name, 'Errands');
    await user.click(screen.getByRole('radio', { name: 'Violet' }));
    await user.click(screen.getByRole('button', { name: 'Create Group' }));

    await waitFor(() => expect(names()).toEqual(['Errands', 'Work']));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Errands',
      color: '#8B5CF6',
    });
    expect(name).toHaveValue('');
    expect(screen.getByRole('radio', { name: 'Blue' })).toBeChecked();
  });

  it('edits with Update Group / Cancel and replaces the group in place', async () => {
    const { calls } = fakeBackend({ groups: [work, home] });
    const { user } = renderApp('/groups');
    await user.click(await screen.findByRole('button', { name: 'Edit Work' }));

    expect(screen.getByLabelText('Group name')).toHaveValue('Work');
    expect(screen.getByLabelText('Group name')).toHaveFocus();
    expect(screen.getByRole('radio', { name: 'Red' })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Create Group' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Create Group' })).toBeInTheDocument();
    expect(screen.getByLabelText('Group name')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Edit Work' }));
    await user.clear(screen.getByLabelText('Group name'));
    await user.type(screen.getByLabelText('Group name'), 'Office');
    await user.click(screen.getByRole('radio', { name: 'Cyan' }));
    await user.click(screen.getByRole('button', { name: 'Update Group' }));

    await waitFor(() => expect(names()).toEqual(['Home', 'Office']));
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/todo-groups/1',
      body: { name: 'Office', color: '#06B6D4' },
    });
    expect(screen.getByRole('button', { name: 'Create Group' })).toBeInTheDocument();
  });

  it('asks the browser confirm with the exact text; Cancel keeps the group', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { calls } = fakeBackend({ groups: [work] });
    const { user } = renderApp('/groups');
    await user.click(await screen.findByRole('button', { name: 'Delete Work' }));
    expect(confirm).toHaveBeenCalledWith('Delete this group? Todos will become ungrouped.');
    expect(names()).toEqual(['Work']);
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('deletes on OK; the todos of the group become ungrouped', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    fakeBackend({ groups: [work, home], todos: [makeTodo({ id: 5, title: 'Task', groupId: 1 })] });
    const { user } = renderApp('/groups');
    await user.click(await screen.findByRole('button', { name: 'Delete Work' }));
    await waitFor(() => expect(names()).toEqual(['Home']));

    await user.click(screen.getByRole('link', { name: 'Todos' }));
    expect(await screen.findByRole('tab', { name: 'No Group (1)' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /Work/ })).not.toBeInTheDocument();
  });

  it('offers Undo after the confirm, which brings the group and its todos back', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { calls } = fakeBackend({
      groups: [work, home],
      todos: [makeTodo({ id: 5, title: 'Task', groupId: 1 })],
    });
    const { user } = renderApp('/groups');
    await user.click(await screen.findByRole('button', { name: 'Delete Work' }));
    expect(await screen.findByText('Deleted the group "Work"')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect([...names()].sort()).toEqual(['Home', 'Work']));
    const created = calls.find(
      (call) => call.method === 'POST' && call.path === '/api/todo-groups',
    );
    expect(created?.body).toEqual({ name: 'Work', color: work.color });
    const moved = calls.find((call) => call.path === '/api/todos/bulk');
    expect(moved?.body).toMatchObject({ ids: [5], action: 'move' });
  });

  it('shows a dismissible message when saving fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fakeBackend({ groups: [work] }, { 'POST /api/todo-groups': () => json({}, 500) });
    const { user } = renderApp('/groups');
    await screen.findByRole('list', { name: 'Groups' });
    await user.type(screen.getByLabelText('Group name'), 'Play');
    await user.click(screen.getByRole('button', { name: 'Create Group' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Server error - please try again later',
    );
    expect(screen.getByLabelText('Group name')).toHaveValue('Play');
  });

  it('says a name already taken beside the name, on create and rename, until it is edited', async () => {
    const taken = (call: { body: unknown }) =>
      json({ error: `You already have a group named "${(call.body as Group).name}"` }, 409);
    fakeBackend(
      { groups: [work, home] },
      { 'POST /api/todo-groups': taken, 'PUT /api/todo-groups/:id': taken },
    );
    const { user } = renderApp('/groups');
    await screen.findByRole('list', { name: 'Groups' });
    const name = screen.getByLabelText('Group name');
    await user.type(name, 'Work');
    await user.click(screen.getByRole('button', { name: 'Create Group' }));
    await waitFor(() =>
      expect(name).toHaveAccessibleDescription('You already have a group named "Work".'),
    );
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // Beside the field only: no notice besides.
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(name, 's');
    expect(name).not.toHaveAccessibleDescription();
    expect(screen.queryByText(/already have a group/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit Home' }));
    const rename = screen.getByLabelText('Group name');
    await user.clear(rename);
    await user.type(rename, 'Work');
    await user.click(screen.getByRole('button', { name: 'Update Group' }));
    await waitFor(() =>
      expect(rename).toHaveAccessibleDescription('You already have a group named "Work".'),
    );
  });
});
