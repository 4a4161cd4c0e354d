import type { Repeat, Todo, TodoOrderKeys } from '@tally/contract';
import type { FilterList } from '@tally/contract/filter-query';
import type { TodoRow } from '../db/schema.js';
import { isoTime } from '../shared/iso-time.js';

/** The columns a todo is answered from, and the answer. */
export const COLUMNS = [
  'id',
  'title',
  'description',
  'group_id',
  'completed',
  'created_at',
  'due_date',
  'due_time',
  'repeat',
  'reminder_minutes',
  'priority',
  'parent_id',
  'start_date',
  'duration_minutes',
  'position',
  'custom_repeat',
  'version',
] as const;

/** The same columns, named by their table, for a select that joins another. */
export const TODOS_COLUMNS = COLUMNS.map((column) => `todos.${column}` as const);

/** The list's filters (GET /api/todos?tag=&priority=&filter=), which combine with everything else. */
export interface TodoFilters {
  tag?: string | undefined;
  priority?: number | undefined;
  /** One list of a filter query (shared/filter-sql.ts). */
  filter?: FilterList | undefined;
}

export type TodoColumns = Pick<TodoRow, (typeof COLUMNS)[number]>;

/**
 * The columns a create and an update write from the request, by their own names (besides the
 * owner, completion and times): a new column the API writes is added here and in both calls.
 */
export const WRITTEN = [
  'group_id',
  'title',
  'description',
  'due_date',
  'due_time',
  'repeat',
  'reminder_minutes',
  'search_text',
  'priority',
  'parent_id',
  'start_date',
  'duration_minutes',
  'position',
] as const;

export type TodoWrite = Pick<TodoRow, (typeof WRITTEN)[number]>;

/** `tags` come from todo_tags (todos/tag-links.ts): one query per answer, never one per todo. */
export function toTodo(row: TodoColumns, tags: readonly string[]): Todo {
  const todo: Todo = {
    id: row.id,
    title: row.title,
    description: row.description,
    groupId: row.group_id,
    completed: row.completed === 1,
    created: isoTime(row.created_at),
    dueDate: row.due_date,
    dueTime: row.due_time,
    // Written only from a validated rule (mergePlanning), so it parses to one.
    repeat: row.repeat === null ? null : (JSON.parse(row.repeat) as Repeat),
    remindMinutesBefore: null,
    reminders: [],
    tags: [...tags],
    priority: row.priority,
    parentId: row.parent_id,
    startDate: row.start_date,
    durationMinutes: row.duration_minutes,
    // PostgreSQL's double precision arrives as a number; SQLite's real too.
    position: Number(row.position),
    version: row.version,
  };
  // Only when a calendar app set one (docs/decisions/085-caldav.md); set after the literal, not
  // spread into it, which cost more for every todo of a list.
  if (row.custom_repeat !== null) todo.customRepeat = row.custom_repeat;
  if (row.reminder_minutes !== null) {
    // Written only by remindersColumn, largest first: the first is the one an older client sees.
    todo.reminders = JSON.parse(row.reminder_minutes) as number[];
    todo.remindMinutesBefore = todo.reminders[0] ?? null;
  }
  return todo;
}

/** What the list's orders (the contract's TODO_ORDERS) compare, read from a row. */
export const orderKeysOf = (row: TodoColumns): TodoOrderKeys => ({
  id: row.id,
  created: row.created_at,
  title: row.title,
  dueDate: row.due_date,
  dueTime: row.due_time,
  priority: row.priority,
  position: Number(row.position),
});

/** A todo's reminders (largest first, as mergeReminders leaves them) as their column. */
export const remindersColumn = (reminders: readonly number[]): string | null =>
  reminders.length === 0 ? null : JSON.stringify(reminders);
