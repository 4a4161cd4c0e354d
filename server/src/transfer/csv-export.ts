import { TODO_CSV_COLUMNS, type Repeat } from '@tally/contract';
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../db/schema.js';
import { tagsOfUserTodos } from '../shared/tags.js';

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
  const rows = await db
    .selectFrom('todos')
    .leftJoin('todo_groups', 'todo_groups.id', 'todos.group_id')
    .select([
      'todos.id',
      'todos.title',
      'todos.description',
      'todo_groups.name as group',
      'todos.completed',
      'todos.due_date',
      'todos.due_time',
      'todos.repeat',
      'todos.created_at',
      'todos.priority',
      'todos.parent_id',
      'todos.start_date',
      'todos.duration_minutes',
    ])
    .where('todos.user_id', '=', userId)
    .orderBy('todos.created_at')
    .orderBy('todos.id')
    .execute();
  const tags = await tagsOfUserTodos(db, userId);
  return stringify(
    rows.map((row) => [
      row.id,
      row.title,
      row.description ?? '',
      row.group ?? '',
      row.completed === 1 ? 'true' : 'false',
      row.due_date ?? '',
      row.due_time ?? '',
      row.repeat === null ? '' : describeRepeat(JSON.parse(row.repeat) as Repeat),
      new Date(Number(row.created_at)).toISOString(),
      (tags.get(row.id) ?? []).join(' '),
      row.priority,
      row.parent_id ?? '',
      row.start_date ?? '',
      row.duration_minutes ?? '',
    ]),
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
