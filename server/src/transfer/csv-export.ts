import { TODO_CSV_COLUMNS, type Repeat } from '@tally/contract';
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../db/schema.js';
import { tagsOfUserTodos } from '../shared/tags.js';
import { TODOS_COLUMNS, toTodo } from '../todos/rows.js';

const UNITS = { day: 'day', week: 'week', month: 'month', year: 'year' } as const;
const DAY_NAMES = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
const NTH = { 1: '1st', 2: '2nd', 3: '3rd', 4: '4th', 5: '5th', [-1]: 'last' } as Record<
  number,
  string
>;

/** A repeat rule in words, for a spreadsheet: "every 2 weeks on Mon, Thu, from completion". */
export function describeRepeat(repeat: Repeat): string {
  const unit = UNITS[repeat.unit];
  let text = repeat.every === 1 ? `every ${unit}` : `every ${repeat.every} ${unit}s`;
  if (repeat.weekdays?.length) text += ` on ${repeat.weekdays.map((d) => DAY_NAMES[d]).join(', ')}`;
  if (repeat.nthWeekday) {
    text += ` on the ${NTH[repeat.nthWeekday.n]} ${DAY_NAMES[repeat.nthWeekday.weekday]}`;
  } else if (repeat.unit === 'month' && repeat.monthDay !== undefined) {
    text += ` on day ${repeat.monthDay}`;
  }
  if (repeat.from === 'completion') text += ', from completion';
  return text;
}

/**
 * The caller's todos as CSV (docs/product.md, Import and export) with csv-stringify: RFC 4180
 * (CRLF, a cell quoted when it holds a comma, quote, LF or CR, its quotes doubled), UTF-8
 * with a byte-order mark so spreadsheet programs read it as UTF-8, and `escape_formulas`: a cell
 * starting with = + - @, a tab or a carriage return gets a leading ' so it is never run as a
 * formula (CSV injection).
 */
export async function todosCsv(db: Db, userId: number): Promise<string> {
  const [rows, tags] = await Promise.all([
    db
      .selectFrom('todos')
      .leftJoin('todo_groups', 'todo_groups.id', 'todos.group_id')
      .select([...TODOS_COLUMNS, 'todo_groups.name as group'])
      .where('todos.user_id', '=', userId)
      .orderBy('todos.created_at')
      .orderBy('todos.id')
      .execute(),
    tagsOfUserTodos(db, userId),
  ]);
  return stringify(
    rows.map((row) => {
      const todo = toTodo(row, tags.get(row.id) ?? []);
      return [
        todo.id,
        todo.title,
        todo.description ?? '',
        row.group ?? '',
        todo.completed ? 'true' : 'false',
        todo.dueDate ?? '',
        todo.dueTime ?? '',
        todo.repeat === null ? '' : describeRepeat(todo.repeat),
        todo.created,
        todo.tags.join(' '),
        todo.priority,
        todo.parentId ?? '',
        todo.startDate ?? '',
      ];
    }),
    {
      header: true,
      columns: [...TODO_CSV_COLUMNS],
      bom: true,
      record_delimiter: 'windows',
      escape_formulas: true,
      // csv-stringify quotes the record delimiter (CRLF) only: a bare LF or CR is a line break
      // to a spreadsheet too, and unquoted it would start a row with the cell's next line.
      quoted_match: /[\r\n]/,
    },
  );
}
