import type { TodoSort } from './constants.js';
import type { PatchTodoBody, Todo } from './todos.js';

/**
 * The todo's shape and the list rules both sides need, without schemas: the web app imports it
 * from its /todos chunk (contract/package.json's `./todo-shape` entry), so it pulls no TypeBox.
 */

/**
 * The fields a client writes (PATCH /api/todos/{id} takes any of them): what an offline edit
 * queues and a fake backend applies. The rest (id, created, position, version, customRepeat) is
 * the server's.
 */
export const TODO_WRITABLE_FIELDS = [
  'title',
  'description',
  'groupId',
  'completed',
  'dueDate',
  'dueTime',
  'repeat',
  'remindMinutesBefore',
  'reminders',
  'tags',
  'priority',
  'parentId',
  'startDate',
  'durationMinutes',
] as const satisfies readonly (keyof PatchTodoBody)[];

/**
 * A todo as the server makes it from a create that gives only these fields: every other field at
 * its default, created now unless given, first among its siblings (the lowest position), version 1. A new field gets its default here, and every hand-made todo follows.
 */
export function defaultTodo(fields: Pick<Todo, 'id' | 'title'> & Partial<Todo>): Todo {
  const created = fields.created ?? new Date().toISOString();
  const todo: Todo = {
    id: fields.id,
    title: fields.title,
    description: null,
    groupId: null,
    completed: false,
    created,
    dueDate: null,
    dueTime: null,
    repeat: null,
    remindMinutesBefore: null,
    reminders: [],
    tags: [],
    priority: 0,
    parentId: null,
    startDate: null,
    durationMinutes: null,
    position: -Date.parse(created),
    version: 1,
  };
  // A field given as undefined (a request body's omitted field) keeps its default.
  for (const [field, value] of Object.entries(fields)) {
    if (value !== undefined) Object.assign(todo, { [field]: value });
  }
  if (fields.reminders !== undefined) todo.remindMinutesBefore = todo.reminders[0] ?? null;
  return todo;
}

/** Case-insensitive, by code unit: the same order on both databases and in every browser. */
export const compareText = (a: string, b: string): number => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

/** What the list's orders compare: a todo's fields, `created` as epoch milliseconds. */
export interface TodoOrderKeys {
  id: number;
  created: number;
  title: string;
  dueDate: string | null;
  dueTime: string | null;
  priority: number;
  position: number;
}

/** Newest first by created date, ties (or an unreadable date) by the higher id. */
const newer = (a: TodoOrderKeys, b: TodoOrderKeys) => b.created - a.created || b.id - a.id;

/**
 * The orders of ?sort= and of the web app's sort menu (docs/product.md, Sorting), each ending on
 * a unique key so that every client shows the same list.
 */
const TODO_ORDERS: Record<TodoSort, (a: TodoOrderKeys, b: TodoOrderKeys) => number> = {
  created: newer,
  due: (a, b) =>
    (a.dueDate === b.dueDate
      ? 0
      : a.dueDate === null
        ? 1
        : b.dueDate === null
          ? -1
          : compareText(a.dueDate, b.dueDate)) ||
    compareText(a.dueTime ?? '', b.dueTime ?? '') ||
    newer(a, b),
  priority: (a, b) => b.priority - a.priority || newer(a, b),
  title: (a, b) => compareText(a.title, b.title) || newer(a, b),
  manual: (a, b) => a.position - b.position || b.id - a.id,
};

/**
 * `items` in `sort`'s order, as a new array. Each item's keys are taken once, not once per
 * comparison: a list may hold 10,000 todos.
 */
export function sortBy<T>(
  items: readonly T[],
  keysOf: (item: T) => TodoOrderKeys,
  sort: TodoSort,
): T[] {
  const order = TODO_ORDERS[sort];
  const keyed = items.map((item) => ({ item, keys: keysOf(item) }));
  keyed.sort((a, b) => order(a.keys, b.keys));
  return keyed.map(({ item }) => item);
}

const keysOfTodo = (todo: Todo): TodoOrderKeys => ({
  id: todo.id,
  created: Date.parse(todo.created),
  title: todo.title,
  dueDate: todo.dueDate,
  dueTime: todo.dueTime,
  priority: todo.priority,
  position: todo.position,
});

/** Todos in the user's sort, as the server answers ?sort=. */
export const sortTodos = (todos: readonly Todo[], sort: TodoSort): Todo[] =>
  sortBy(todos, keysOfTodo, sort);

/**
 * Open and due before `today`, or on it at a time before `clockTime` (HH:mm): the Overdue view's
 * rule, with the day and time in the user's zone.
 */
export function isOverdue(
  todo: Pick<Todo, 'dueDate' | 'dueTime' | 'completed'>,
  today: string,
  clockTime: string,
): boolean {
  if (todo.completed || !todo.dueDate) return false;
  if (todo.dueDate < today) return true;
  return todo.dueDate === today && todo.dueTime !== null && todo.dueTime < clockTime;
}

/** Hidden until a later day (docs/product.md, Start dates): left out of Today and Upcoming. */
export const isHiddenUntilLater = (todo: Pick<Todo, 'startDate'>, today: string): boolean =>
  todo.startDate !== null && todo.startDate > today;
