import { describe, expect, it, vi } from 'vitest';
import { formatDue } from '../lib/date-format-core';
import { notificationClicked, openTodos, readReminder, reminderNotification } from './reminders';

const reminder = {
  todoId: 7,
  title: 'Dentist',
  dueDate: '2026-12-04',
  dueTime: '09:30',
  actions: [],
};
const complete = 'https://tally.example.com/api/notifications/actions?token=c';
const snooze = 'https://tally.example.com/api/notifications/actions?token=s';
const actions = [
  { action: 'complete', title: 'Complete', url: complete },
  { action: 'snooze-10m', title: 'Snooze 10 min', url: snooze },
];

describe('a reminder push in the service worker', () => {
  it('reads only a reminder from the push data', () => {
    expect(readReminder({ ...reminder, firedAt: '2026-12-04T08:15:00.000Z' })).toEqual(reminder);
    expect(readReminder(null)).toBeNull();
    expect(readReminder({ ...reminder, dueTime: '9:30' })).toBeNull();
    expect(readReminder({ ...reminder, todoId: '7' })).toBeNull();
  });

  it("shows the server's text for an account in another language than English", () => {
    const japanese = readReminder({ ...reminder, body: '期限 2026/12/04 9:30' });
    expect(japanese?.body).toBe('期限 2026/12/04 9:30');
    expect(
      reminderNotification(japanese ?? reminder, new Date(2026, 11, 4, 9, 15)).options.body,
    ).toBe('期限 2026/12/04 9:30');
    expect(readReminder({ ...reminder, body: 7 })).toEqual(reminder);
  });

  it('shows the title and the due time, one notification per todo, opening /todos', () => {
    expect(reminderNotification(reminder, new Date(2026, 11, 4, 9, 15), 'en-GB')).toEqual({
      title: 'Dentist',
      options: {
        body: 'Due Today 09:30',
        tag: 'todo-7',
        icon: '/icons/icon-192.png',
        actions: [],
        data: { url: '/todos', todoId: 7, links: {} },
      },
    });
    expect(reminderNotification(reminder, new Date(2026, 11, 3, 20, 0), 'en-GB').options.body).toBe(
      'Due Tomorrow 09:30',
    );
  });

  it("writes the due date and time as every screen does, in the browser's locale", () => {
    // lib/date-format-core.ts: a 12-hour clock where the locale has one, the year when it is another.
    expect(reminderNotification(reminder, new Date(2026, 11, 1, 8, 0), 'en-US').options.body).toBe(
      `Due ${formatDue('2026-12-04', '09:30', '2026-12-01', 'en-US')}`,
    );
    expect(
      reminderNotification(reminder, new Date(2026, 11, 1, 8, 0), 'en-US').options.body,
    ).toMatch(/^Due Fri, Dec 4,? 9:30\sAM$/);
    expect(
      reminderNotification(reminder, new Date(2025, 11, 1, 8, 0), 'en-GB').options.body,
    ).toMatch(/^Due Fri,? 4 Dec 2026 09:30$/);
  });

  it('focuses an open Tally window on /todos, or opens one', async () => {
    const open = {
      url: 'https://tally.example.com/statistics',
      focus: vi.fn(async () => undefined),
      navigate: vi.fn(async () => undefined),
    };
    const clients = {
      matchAll: vi.fn(async () => [open]),
      openWindow: vi.fn(async () => undefined),
    };
    await openTodos(clients, 'https://tally.example.com');
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).toHaveBeenCalledWith('/todos');
    expect(clients.openWindow).not.toHaveBeenCalled();

    clients.matchAll.mockResolvedValueOnce([]);
    await openTodos(clients, 'https://tally.example.com');
    expect(clients.openWindow).toHaveBeenCalledWith('/todos');
  });

  it('shows Complete and Snooze buttons, keeping only links to the action endpoint', () => {
    const message = readReminder({
      ...reminder,
      actions: [...actions, { action: 'x', title: 'Elsewhere', url: 'https://evil.example/' }],
    });
    expect(message?.actions).toEqual(actions);
    const { options } = reminderNotification(
      { ...reminder, actions },
      new Date(2026, 11, 4, 9, 15),
      'en-GB',
    );
    expect(options.actions).toEqual([
      { action: 'complete', title: 'Complete' },
      { action: 'snooze-10m', title: 'Snooze 10 min' },
    ]);
    expect(options.data).toEqual({
      url: '/todos',
      todoId: 7,
      links: { complete, 'snooze-10m': snooze },
    });
  });

  it("posts a button's link without opening Tally; the notification itself opens Tally", async () => {
    const clients = {
      matchAll: vi.fn(async () => []),
      openWindow: vi.fn(async () => undefined),
    };
    const post = vi.fn(async () => undefined);
    const { data } = reminderNotification({ ...reminder, actions }, new Date()).options;
    await notificationClicked('snooze-10m', data, clients, 'https://tally.example.com', post);
    expect(post).toHaveBeenCalledWith(snooze);
    expect(clients.openWindow).not.toHaveBeenCalled();

    await notificationClicked('', data, clients, 'https://tally.example.com', post);
    expect(post).toHaveBeenCalledTimes(1);
    expect(clients.openWindow).toHaveBeenCalledWith('/todos');
  });
});
