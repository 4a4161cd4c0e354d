import type { Repeat, Todo } from '@tally/contract';
import { pad } from '@tally/contract/dates';

/**
 * The planning rules of the fake API (fake-api.ts), simplified: the views by date in the
 * browser's zone, and a repeat's next date by its unit alone (the server's rules are in
 * server/src/todos/planning.ts and tested there).
 */

const localDate = (moment: Date) =>
  `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
const shift = (date: string, days = 0, months = 0, years = 0) => {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return localDate(new Date(year + years, month - 1 + months, day + days));
};

function nextDate(repeat: Repeat, dueDate: string): string {
  switch (repeat.unit) {
    case 'day':
      return shift(dueDate, repeat.every);
    case 'week':
      return shift(dueDate, 7 * repeat.every);
    case 'month':
      return shift(dueDate, 0, repeat.every);
    case 'year':
      return shift(dueDate, 0, 0, repeat.every);
  }
}

/** GET /api/todos?view=…: open todos by due date, soonest first; without a view, all of them. */
export function viewOf(todos: readonly Todo[], view: string | null, now = new Date()): Todo[] {
  if (!view) return [...todos];
  const today = localDate(now);
  const last = shift(today, 6);
  return todos
    .filter((todo) => !todo.completed && todo.dueDate !== null)
    .filter((todo) => {
      const due = todo.dueDate ?? '';
      return view === 'today' ? due <= today : due >= today && due <= last;
    })
    .sort(
      (a, b) =>
        (a.dueDate ?? '').localeCompare(b.dueDate ?? '') ||
        (a.dueTime ?? '').localeCompare(b.dueTime ?? '') ||
        a.id - b.id,
    );
}

type PlanningChange = Partial<Pick<Todo, 'dueDate' | 'dueTime' | 'repeat'>>;

/** A PUT: omitted planning fields stay, null clears; completing a repeating todo moves it on. */
export function updated(existing: Todo, body: Partial<Todo> & PlanningChange): Todo {
  const next: Todo = { ...existing, ...body };
  if (next.dueDate === null) Object.assign(next, { dueTime: null, repeat: null });
  if (next.completed && !existing.completed && next.repeat && next.dueDate) {
    next.completed = false;
    next.dueDate = nextDate(next.repeat, next.dueDate);
  }
  return next;
}
