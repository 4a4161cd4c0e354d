import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TrashedTodo } from '@tally/contract';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const trashed = (id: number, title: string): TrashedTodo => ({
  ...makeTodo({ id, title }),
  trashedAt: '2026-03-05T09:30:00.000Z',
});

const listed = () =>
  within(screen.getByRole('list', { name: 'Deleted todos' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('p')?.textContent);

beforeAll(async () => {
  await import('./TrashPage');
});

beforeEach(() => {
  storeSession('alice');
});

describe('/trash', () => {
  it('lists deleted todos; Restore puts one back among the todos', async () => {
    const { calls } = fakeBackend({ trash: [trashed(2, 'Second'), trashed(1, 'First')] });
    const { user } = renderApp('/trash');
    expect(await screen.findByRole('heading', { name: 'Trash' })).toBeInTheDocument();
    await waitFor(() => expect(listed()).toEqual(['Second', 'First']));
    await user.click(screen.getByRole('button', { name: 'Restore First' }));
    await waitFor(() => expect(listed()).toEqual(['Second']));
    expect(calls.some((call) => call.path === '/api/trash/1/restore')).toBe(true);
    expect(screen.getByText('Restored "First"')).toBeInTheDocument();
  });

  it("names each row's buttons with the words they show, then the todo's title", async () => {
    fakeBackend({ trash: [trashed(2, 'Second')] });
    renderApp('/trash');
    const row = within(await screen.findByRole('list', { name: 'Deleted todos' })).getByRole(
      'listitem',
    );
    const buttons = within(row).getAllByRole('button');
    expect(
      buttons.map((button) => [button.textContent, button.getAttribute('aria-label')]),
    ).toEqual([
      ['Restore', 'Restore Second'],
      ['Delete forever', 'Delete forever Second'],
    ]);
  });

  it("shows a deleted todo's description as Markdown", async () => {
    fakeBackend({
      trash: [
        { ...trashed(1, 'Notes'), description: 'Read **this** at [the site](https://example.com)' },
      ],
    });
    renderApp('/trash');
    const link = await screen.findByRole('link', { name: 'the site' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.getByText('this').tagName).toBe('STRONG');
  });

  it('deletes one forever, or empties the trash, each after a confirm', async () => {
    const { calls } = fakeBackend({ trash: [trashed(2, 'Second'), trashed(1, 'First')] });
    const { user } = renderApp('/trash');
    await user.click(await screen.findByRole('button', { name: 'Delete forever Second' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete forever' });
    expect(dialog).toHaveTextContent('Delete "Second" for good? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete forever' }));
    await waitFor(() => expect(listed()).toEqual(['First']));
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/trash/2')).toBe(
      true,
    );

    await user.click(screen.getByRole('button', { name: 'Empty trash' }));
    const empty = screen.getByRole('dialog', { name: 'Empty trash' });
    await user.click(within(empty).getByRole('button', { name: 'Cancel' }));
    expect(listed()).toEqual(['First']);
    await user.click(screen.getByRole('button', { name: 'Empty trash' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Empty trash' })).getByRole('button', {
        name: 'Empty trash',
      }),
    );
    expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Empty trash' })).not.toBeInTheDocument();
  });
});
