import { act, screen, waitFor, within } from '@testing-library/react';
import type { Reminder } from '@tally/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { tellLiveListeners } from '#web/lib/live-listeners';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const reminder = {
  todoId: 4,
  title: 'Dentist',
  dueDate: '2026-12-04',
  dueTime: '09:30',
  firedAt: '2026-12-04T08:15:00.000Z',
};

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  storeSession('alice');
});

describe('reminders in the open app', () => {
  it('shows a reminder that went out as a notice, once, and asks only after it next time', async () => {
    const { calls } = fakeBackend({ reminders: [reminder] });
    renderApp('/groups');
    const notice = await screen.findByText('Reminder: Dentist, due 09:30');
    expect(notice.closest('[role="status"]')).toBeInTheDocument();
    expect(window.localStorage.getItem('reminderSeen')).toBe(reminder.firedAt);

    // Another tab (or a reload) asks from the last one shown, and shows nothing twice.
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/api/reminders' && call.search.get('after'))).toBe(
        true,
      ),
    );
    expect(screen.getAllByText('Reminder: Dentist, due 09:30')).toHaveLength(1);
  });

  it('shows a reminder in this tab too when another open tab showed it first', async () => {
    const reminders: Reminder[] = [];
    const backend = fakeBackend({ reminders });
    renderApp('/groups');
    await waitFor(() =>
      expect(backend.calls.some((call) => call.path === '/api/reminders')).toBe(true),
    );
    reminders.push(reminder);
    // The other tab heard the same event first and stored it as the last one shown.
    window.localStorage.setItem('reminderSeen', reminder.firedAt);
    act(() => tellLiveListeners({ type: 'reminder.fired', id: reminder.todoId }));
    expect(await screen.findByText('Reminder: Dentist, due 09:30')).toBeVisible();
  });

  it('takes the notice away when another tab answered the reminder', async () => {
    fakeBackend({ reminders: [reminder] });
    renderApp('/groups');
    expect(await screen.findByText('Reminder: Dentist, due 09:30')).toBeVisible();
    // The other tab pressed Complete or Snooze on the same reminder.
    const otherTab = new BroadcastChannel('tally-reminder-answered');
    otherTab.postMessage(`${reminder.todoId}@${reminder.firedAt}`);
    otherTab.close();
    await waitFor(() =>
      expect(screen.queryByText('Reminder: Dentist, due 09:30')).not.toBeInTheDocument(),
    );
  });

  it('a tab opened later does not bring back what another tab already showed', async () => {
    window.localStorage.setItem('reminderSeen', reminder.firedAt);
    const backend = fakeBackend({ reminders: [reminder] });
    renderApp('/groups');
    await waitFor(() =>
      expect(
        backend.calls.some(
          (call) => call.path === '/api/reminders' && call.search.get('after') === reminder.firedAt,
        ),
      ).toBe(true),
    );
    expect(screen.queryByText('Reminder: Dentist, due 09:30')).not.toBeInTheDocument();
  });

  it('shows a reminder the live stream announces, with Complete and Snooze', async () => {
    const reminders: Reminder[] = [];
    const backend = fakeBackend({ todos: [makeTodo({ id: 4, title: 'Dentist' })], reminders });
    const { user } = renderApp('/groups');
    await waitFor(() =>
      expect(backend.calls.some((call) => call.path === '/api/reminders')).toBe(true),
    );
    reminders.push(reminder);
    act(() => tellLiveListeners({ type: 'reminder.fired', id: reminder.todoId }));
    const notice = (await screen.findByText('Reminder: Dentist, due 09:30')).closest(
      '[role="status"]',
    ) as HTMLElement;
    expect(
      within(notice).getByRole('button', { name: 'Snooze Dentist for 10 minutes' }),
    ).toBeVisible();
    await user.click(within(notice).getByRole('button', { name: 'Complete Dentist' }));
    await waitFor(() =>
      expect(
        backend.calls.some((call) => call.method === 'PATCH' && call.path === '/api/todos/4'),
      ).toBe(true),
    );
    expect(screen.queryByText('Reminder: Dentist, due 09:30')).not.toBeInTheDocument();
    expect(screen.queryByText(/failed/)).not.toBeInTheDocument();
  });
});
