import { TODO_CSV_COLUMNS, type Repeat, type Weekday } from '@tally/contract';
import { badRequest } from '../../shared/errors.js';
import { readCsv } from '../csv.js';
import {
  durationOf,
  SourceBuilder,
  type SourceContext,
  type SourceFile,
  type SourceTodo,
} from './source.js';

/**
 * Tally's own CSV export (GET /api/export/csv, ../csv-export.ts): a header row naming
 * TODO_CSV_COLUMNS, then one row per todo, oldest first. Read back as the export wrote it:
 *
 * - a cell the export prefixed with ' (so a spreadsheet never runs it as a formula) loses it;
 * - repeat is the export's words ("every 2 weeks on Mon, Thu, from completion");
 * - tags are space-separated; parentId names an earlier row's id (the export is oldest first);
 * - id names the row across imports, so importing the same file twice adds nothing new.
 */

const FORMULA_PREFIX = /^'(?=[=+\-@\t\r])/;
const DAYS: Record<string, Weekday> = {
  mon: 'mon',
  tue: 'tue',
  wed: 'wed',
  thu: 'thu',
  fri: 'fri',
  sat: 'sat',
  sun: 'sun',
};
const NTH: Record<string, 1 | 2 | 3 | 4 | 5 | -1> = {
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
  '5th': 5,
  last: -1,
};
const REPEAT =
  /^every (?:(\d{1,3}) )?(day|week|month|year)s?(?: on (?:the (1st|2nd|3rd|4th|5th|last) (\w{3})|day (\d{1,2})|((?:\w{3})(?:, \w{3})*)))?(, from completion)?$/i;

/** The export's repeat words back as a rule; null when they are not the export's. */
function repeatOfWords(words: string): Repeat | null {
  const match = REPEAT.exec(words.trim());
  if (!match) return null;
  const [, every = '1', unit = '', nth, nthDay, monthDay, weekdays, completion] = match;
  const repeat: Repeat = {
    every: Number(every),
    unit: unit.toLowerCase() as Repeat['unit'],
    from: completion ? 'completion' : 'due',
  };
  if (nth && nthDay) {
    const n = NTH[nth.toLowerCase()];
    const weekday = DAYS[nthDay.toLowerCase()];
    if (!n || !weekday) return null;
    repeat.nthWeekday = { n, weekday };
  } else if (monthDay) {
    repeat.monthDay = Number(monthDay);
  } else if (weekdays) {
    const days = weekdays.split(', ').map((day) => DAYS[day.toLowerCase()]);
    if (days.some((day) => day === undefined)) return null;
    repeat.weekdays = days as Weekday[];
  }
  return repeat;
}

export async function readTallyCsv(text: string, context: SourceContext): Promise<SourceFile> {
  const source = new SourceBuilder();
  const rows = readCsv(text, source.file.skipped);
  try {
    const first = await rows.next();
    const header = first.done ? [] : first.value.cells.map((name) => name.trim());
    if (!header.includes('id') || !header.includes('title')) {
      throw badRequest(
        `This is not Tally's CSV export: its first row does not name the columns ${TODO_CSV_COLUMNS.join(', ')}`,
      );
    }
    const column = new Map(header.map((name, index) => [name, index]));
    const byId = new Map<string, SourceTodo>();
    for await (const { line, cells } of rows) {
      const where = `line ${line}`;
      const cell = (name: (typeof TODO_CSV_COLUMNS)[number]) =>
        (cells[column.get(name) ?? -1] ?? '').replace(FORMULA_PREFIX, '');
      const id = cell('id').trim();
      let repeat: Repeat | null = null;
      const repeatWords = cell('repeat').trim();
      if (repeatWords) {
        repeat = repeatOfWords(repeatWords);
        if (!repeat) {
          source.warn(line, where, `Imported without its repeat: "${repeatWords}" is not a rule`);
        }
      }
      const planning = source.planning(context.checkPlanning, line, where, {
        dueDate: cell('dueDate').trim() || null,
        dueTime: cell('dueTime').trim() || null,
        repeat,
      });
      const created = Date.parse(cell('createdAt').trim());
      const groupText = cell('group').trim();
      const parentId = cell('parentId').trim();
      const parent = parentId ? (byId.get(parentId) ?? null) : null;
      if (parentId && !parent) {
        source.warn(line, where, `Its parent (id ${parentId}) is not an earlier row: top level`);
      }
      const priority = Number(cell('priority').trim() || '0');
      const todo: SourceTodo = {
        line,
        where,
        key: id || `${line}`,
        title: cell('title'),
        description: cell('description') || null,
        group: groupText ? source.groupName(groupText, line, where) : null,
        completed: cell('completed').trim().toLowerCase() === 'true',
        ...planning,
        createdAt: Number.isFinite(created) ? created : null,
        updatedAt: null,
        completions: [],
        tags: cell('tags').split(/\s+/).filter(Boolean),
        priority: Number.isInteger(priority) && priority >= 0 && priority <= 3 ? priority : 0,
        parent,
        durationMinutes: durationOf(Number(cell('durationMinutes'))),
        startDate: source.startDate(cell('startDate').trim() || null, line, where),
      };
      const added = source.addTodo(todo);
      if (id && added) byId.set(id, added);
    }
    return source.file;
  } finally {
    await rows.return(undefined);
  }
}
