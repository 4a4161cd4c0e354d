import type { Repeat, Todo } from '@tally/contract';
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
  'remind_minutes_before',
] as const;

export type TodoColumns = Pick<TodoRow, (typeof COLUMNS)[number]>;

export function toTodo(row: TodoColumns): Todo {
  return {
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
    remindMinutesBefore: row.remind_minutes_before,
  };
}
