import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend } from '#web/test/fake-api';
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
});
