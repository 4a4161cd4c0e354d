/**
 * What the service worker does with a reminder (docs/product.md, Reminders): the push carries
 * the reminder as JSON (server/src/reminders/service.ts); it becomes one notification per todo
 * (a newer reminder of the same todo replaces the older), and a click brings Tally's window to
 * /todos, or opens one. Kept apart from push.ts, which binds it to the worker, so tests can call
 * it with stand-ins for the worker's scope.
 */
import { formatDue } from '../lib/date-format-core';

/** A button of the notification and the signed link its click posts (no session needed). */
interface ReminderAction {
  action: string;
  title: string;
  url: string;
}

export interface ReminderMessage {
  todoId: number;
  title: string;
  dueDate: string;
  dueTime: string;
  /** The text in the account's language, when it is not English (the server writes it). */
  body?: string;
  actions: ReminderAction[];
}

/**
 * Chromium shows buttons from `actions`; TypeScript's lib leaves the field out (not every
 * browser has it), so it is declared here.
 */
interface NotificationWithActions extends NotificationOptions {
  actions: { action: string; title: string }[];
}

const ACTION_PATH = '/api/notifications/actions';

const TODOS_PATH = '/todos';

/** The reminder in a push's data, or null for anything else (nothing is shown for it). */
export function readReminder(data: unknown): ReminderMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { todoId, title, dueDate, dueTime, body } = data as Record<string, unknown>;
  if (typeof todoId !== 'number' || typeof title !== 'string') return null;
  if (typeof dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) return null;
  if (typeof dueTime !== 'string' || !/^\d{2}:\d{2}$/.test(dueTime)) return null;
  return {
    todoId,
    title,
    dueDate,
    dueTime,
    ...(typeof body === 'string' && body !== '' ? { body } : {}),
    actions: readActions(data),
  };
}

/** The buttons: only links to Tally's own action endpoint are kept. */
function readActions(data: object): ReminderAction[] {
  const { actions } = data as { actions?: unknown };
  if (!Array.isArray(actions)) return [];
  return actions.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { action, title, url } = entry as Record<string, unknown>;
    if (typeof action !== 'string' || typeof title !== 'string' || typeof url !== 'string') {
      return [];
    }
    return URL.canParse(url) && new URL(url).pathname === ACTION_PATH
      ? [{ action, title, url }]
      : [];
  });
}

const localDate = (now: Date) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/**
 * The notification of a reminder; its due date and time are written as on every screen
 * (lib/date-format-core.ts, decision 087): "Due Today 09:30", "Due Fri 4 Dec 9:30 AM". `locale` is
 * for tests; the worker takes the browser's.
 */
export function reminderNotification(
  reminder: ReminderMessage,
  now: Date,
  locale?: string,
): { title: string; options: NotificationWithActions } {
  return {
    title: reminder.title,
    options: {
      body:
        reminder.body ??
        `Due ${formatDue(reminder.dueDate, reminder.dueTime, localDate(now), locale)}`,
      tag: `todo-${reminder.todoId}`,
      icon: '/icons/icon-192.png',
      actions: reminder.actions.map(({ action, title }) => ({ action, title })),
      data: {
        url: TODOS_PATH,
        todoId: reminder.todoId,
        links: Object.fromEntries(reminder.actions.map(({ action, url }) => [action, url])),
      },
    },
  };
}

/**
 * A click on the notification: a button posts its signed link (the todo is completed or
 * snoozed without opening Tally); the notification itself opens Tally.
 */
export async function notificationClicked(
  action: string,
  data: unknown,
  clients: ClientsLike,
  origin: string,
  post: (url: string) => Promise<unknown>,
): Promise<void> {
  const links = (data as { links?: Record<string, unknown> } | null)?.links;
  const link = action === '' ? undefined : links?.[action];
  if (typeof link === 'string') await post(link);
  else await openTodos(clients, origin);
}

interface WindowLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

/** The parts of the worker's scope the click needs. */
export interface ClientsLike {
  matchAll(options: {
    type: 'window';
    includeUncontrolled: boolean;
  }): Promise<readonly WindowLike[]>;
  openWindow(url: string): Promise<unknown>;
}

/** Focuses a Tally window (on /todos) or opens one. */
export async function openTodos(clients: ClientsLike, origin: string): Promise<void> {
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const target = windows.find((client) => new URL(client.url).origin === origin);
  if (!target) {
    await clients.openWindow(TODOS_PATH);
    return;
  }
  await target.focus();
  if (new URL(target.url).pathname !== TODOS_PATH) await target.navigate(TODOS_PATH);
}
