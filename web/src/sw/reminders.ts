/**
 * What the service worker does with a reminder (docs/product.md, Reminders): the push carries
 * the reminder as JSON (server/src/reminders/service.ts); it becomes one notification per todo
 * (a newer reminder of the same todo replaces the older), and a click brings Tally's window to
 * /todos, or opens one. Kept apart from push.ts, which binds it to the worker, so tests can call
 * it with stand-ins for the worker's scope.
 */

export interface ReminderMessage {
  todoId: number;
  title: string;
  dueDate: string;
  dueTime: string;
}

const TODOS_PATH = '/todos';

/** The reminder in a push's data, or null for anything else (nothing is shown for it). */
export function readReminder(data: unknown): ReminderMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { todoId, title, dueDate, dueTime } = data as Record<string, unknown>;
  if (typeof todoId !== 'number' || typeof title !== 'string') return null;
  if (typeof dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) return null;
  if (typeof dueTime !== 'string' || !/^\d{2}:\d{2}$/.test(dueTime)) return null;
  return { todoId, title, dueDate, dueTime };
}

const localDate = (now: Date) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/** "Due today at 09:30", or "Due Fri 4 Dec at 09:30" on another day. */
function dueText(reminder: ReminderMessage, now: Date): string {
  if (reminder.dueDate === localDate(now)) return `Due today at ${reminder.dueTime}`;
  const [year, month, day] = reminder.dueDate.split('-').map(Number) as [number, number, number];
  const date = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(new Date(year, month - 1, day));
  return `Due ${date.replace(',', '')} at ${reminder.dueTime}`;
}

export function reminderNotification(
  reminder: ReminderMessage,
  now: Date,
): { title: string; options: NotificationOptions } {
  return {
    title: reminder.title,
    options: {
      body: dueText(reminder, now),
      tag: `todo-${reminder.todoId}`,
      icon: '/icons/icon-192.png',
      data: { url: TODOS_PATH, todoId: reminder.todoId },
    },
  };
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
