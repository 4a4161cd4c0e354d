import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

/** /calendar (docs/product.md, Calendar screen) with the browser's zone, on a fixed day. */

// Monday 23 November 2026, 12:00 in the browser's zone.
const NOW = new Date(2026, 10, 23, 12, 0);

beforeAll(async () => {
  // The screen's code is a lazy chunk (app/router.tsx): load it before the first render.
  await import('./CalendarPage');
});

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  storeSession('alice');
});

const cell = (date: string) => {
  const found = document.querySelector<HTMLElement>(`td[data-drop-date="${date}"]`);
  if (!found) throw new Error(`no cell ${date}`);
  return found;
};

describe('/calendar', () => {
  it('shows the month: todos in order, "+n more", completed only when asked, unscheduled beside', async () => {
    fakeBackend({
      todos: [
        makeTodo({ id: 1, title: 'Evening', dueDate: '2026-11-25', dueTime: '19:00' }),
        makeTodo({ id: 2, title: 'Morning', dueDate: '2026-11-25', dueTime: '08:00' }),
        makeTodo({ id: 3, title: 'Any time', dueDate: '2026-11-25' }),
        makeTodo({ id: 4, title: 'Fourth', dueDate: '2026-11-25', dueTime: '20:00' }),
        makeTodo({ id: 5, title: 'Done', dueDate: '2026-11-24', completed: true }),
        makeTodo({ id: 6, title: 'Someday' }),
      ],
    });
    const { user } = renderApp('/calendar');
    expect(await screen.findByRole('heading', { name: 'November 2026' })).toBeVisible();
    await waitFor(() =>
      expect(
        within(cell('2026-11-25'))
          .getAllByRole('button')
          .map((button) => button.getAttribute('aria-label') ?? button.textContent),
      ).toEqual(['Any time', 'Morning, 08:00', 'Evening, 19:00', '+1 more on Wed 25 Nov']),
    );
    expect(cell('2026-11-23')).toHaveAttribute('aria-current', 'date');
    expect(within(cell('2026-11-24')).queryByRole('button')).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'Show completed' }));
    expect(within(cell('2026-11-24')).getByRole('button', { name: 'Done' })).toBeVisible();
    const unscheduled = screen.getByRole('region', { name: 'Unscheduled' });
    expect(within(unscheduled).getByRole('button', { name: 'Someday' })).toBeVisible();

    await user.click(within(cell('2026-11-25')).getByRole('button', { name: /^\+1 more/ }));
    expect(await screen.findByRole('heading', { name: 'Wed 25 Nov' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Fourth, 20:00' })).toBeVisible();
  });

  it('moves a todo with "Move to…", saved with its version and offered to undo', async () => {
    const { calls } = fakeBackend({
      todos: [makeTodo({ id: 1, title: 'Call the bank', dueDate: '2026-11-25' })],
    });
    const { user } = renderApp('/calendar');
    await user.click(await screen.findByRole('button', { name: 'Call the bank' }));
    const dialog = screen.getByRole('dialog', { name: 'Move "Call the bank" to…' });
    await user.clear(within(dialog).getByLabelText('Date'));
    await user.type(within(dialog).getByLabelText('Date'), '2026-11-27');
    await user.type(within(dialog).getByLabelText('Time'), '09:30');
    await user.type(within(dialog).getByLabelText('Duration (minutes)'), '45');
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(within(cell('2026-11-27')).getByRole('button', { name: 'Call the bank, 09:30' })),
    );
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.body).toEqual({ dueDate: '2026-11-27', dueTime: '09:30', durationMinutes: 45 });
    expect(patch?.headers.get('if-match')).toBe('"1"');
    expect(await screen.findByRole('button', { name: 'Undo' })).toBeVisible();
  });

  it("shows a repeat's next occurrences faintly, not as todos to move", async () => {
    fakeBackend({
      todos: [
        makeTodo({
          id: 1,
          title: 'Water plants',
          dueDate: '2026-11-23',
          repeat: { every: 3, unit: 'day', from: 'due' },
        }),
      ],
    });
    renderApp('/calendar');
    await screen.findByRole('button', { name: 'Water plants' });
    expect(within(cell('2026-11-26')).getByText('Water plants')).toBeVisible();
    expect(within(cell('2026-11-26')).queryByRole('button')).toBeNull();
    expect(within(cell('2026-11-29')).getByText('Water plants')).toBeVisible();
    expect(within(cell('2026-11-24')).queryByText('Water plants')).toBeNull();
  });
});
