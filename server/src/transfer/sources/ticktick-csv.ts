import { localDateTime, resolveTimeZone } from '../../shared/calendar.js';
import { badRequest } from '../../shared/errors.js';
import { type CsvRow, readCsv } from '../csv.js';
import { repeatOfRrule } from './rrule.js';
import { SourceBuilder, type SourceContext, type SourceFile } from './source.js';

/**
 * TickTick's backup CSV (Settings, Backup & Import, Generate backup). TickTick publishes no
 * specification; this reads the layout its backups have (versions 7.1 and 7.2): a few preamble
 * lines ("Date: …", "Version: …", a "Status: …" legend), then a header row beginning
 * "Folder Name","List Name","Title","Kind",… and a row per task. Columns are found by name.
 *
 * - List Name → group ("Inbox", TickTick's default list, → no group); Folder Name is not kept.
 * - Kind NOTE rows are notes, not tasks: skipped. TEXT and CHECKLIST rows are todos (a checklist's
 *   items stay in the description, as TickTick writes them in Content).
 * - Status 0 → open; 1 and 2 → completed (at Completed Time); -1 ("won't do") → skipped.
 * - Due Date (an instant) → the due date, and the time unless Is All Day, in the row's Timezone.
 * - Repeat (an RRULE) → the repeat, when Tally has an equivalent (./rrule.ts).
 * - Created Time → when the todo was made; taskId names the row across imports.
 * - Tags, Priority, Reminder, Start Date, subtasks' parentId: Tally has no such thing; subtasks
 *   become todos of their own.
 */

const REQUIRED = ['List Name', 'Title'] as const;
/** The header row is among the first 21 (index 0-20). */
const HEADER_WITHIN = 20;

/** "2026-03-15T09:00:00+0000" (TickTick's form) or any ISO 8601 instant; null if not one. */
function instant(value: string | undefined): number | null {
  if (!value) return null;
  const iso = value.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
}

export async function readTickTickCsv(text: string, context: SourceContext): Promise<SourceFile> {
  const source = new SourceBuilder();
  const rows = readCsv(text, source.file.skipped);
  try {
    return await readRows(rows, source, context);
  } finally {
    await rows.return(undefined);
  }
}

/** The rows after the backup's header (its first rows are notes: "Date: ...", "Version: ..."). */
async function readRows(
  rows: AsyncGenerator<CsvRow>,
  source: SourceBuilder,
  context: SourceContext,
): Promise<SourceFile> {
  let header: CsvRow | undefined;
  for (let index = 0; index <= HEADER_WITHIN; index += 1) {
    const next = await rows.next();
    if (next.done) break;
    if (next.value.cells.includes('Title') && next.value.cells.includes('List Name')) {
      header = next.value;
      break;
    }
  }
  if (!header) {
    throw badRequest(
      'This is not a TickTick backup: no header row naming the columns "List Name" and "Title" was found near the top',
    );
  }
  const column = new Map(header.cells.map((name, index) => [name.trim(), index]));
  for (const name of REQUIRED)
    if (!column.has(name)) throw badRequest(`The ${name} column is missing`);
  const cell = (cells: string[], name: string) => {
    const index = column.get(name);
    return index === undefined ? '' : (cells[index] ?? '').trim();
  };

  const seen = new Map<string, number>();
  for await (const { line, cells } of rows) {
    const where = `line ${line}`;
    if (cells.every((value) => value.trim() === '')) continue;
    // A row may end early when its last cells are empty, but not before its title; more cells
    // than the header names means a cell's text broke out of its quotes.
    if (cells.length > header.cells.length || cells.length <= (column.get('Title') ?? 0)) {
      source.skip(
        line,
        where,
        `The row has ${cells.length} cells; the header names ${header.cells.length}`,
      );
      continue;
    }
    const kind = cell(cells, 'Kind').toUpperCase();
    if (kind === 'NOTE') {
      source.skip(line, where, 'It is a note, not a task');
      continue;
    }
    const status = cell(cells, 'Status') || '0';
    if (status === '-1') {
      source.skip(line, where, 'It is marked "won\'t do" in TickTick');
      continue;
    }
    if (!['0', '1', '2'].includes(status)) {
      source.skip(line, where, `Its Status "${status}" is not one TickTick writes (0, 1, 2 or -1)`);
      continue;
    }
    const completed = status !== '0';
    const zone = resolveTimeZone(cell(cells, 'Timezone') || context.zone);

    let dueDate: string | null = null;
    let dueTime: string | null = null;
    const dueText = cell(cells, 'Due Date');
    const due = instant(dueText);
    if (dueText && due === null) {
      source.warn(line, where, `Its Due Date "${dueText}" is not a date: imported without one`);
    } else if (due !== null) {
      const local = localDateTime(due, zone);
      dueDate = local.date;
      const allDay = cell(cells, 'Is All Day').toLowerCase();
      // Older backups have no Is All Day column: a due time of midnight is a day.
      const isAllDay = allDay === 'true' || (allDay === '' && local.time === '00:00');
      dueTime = isAllDay ? null : local.time;
    }
    let repeat = null;
    const repeatText = cell(cells, 'Repeat');
    if (repeatText) {
      const read = repeatOfRrule(repeatText);
      repeat = read.repeat;
      if (read.problem) {
        source.warn(
          line,
          where,
          read.repeat
            ? `Its repeat is kept without ${read.problem}`
            : `Imported without its repeat: ${read.problem}`,
        );
      }
      if (repeat && dueDate === null) {
        source.warn(line, where, 'Imported without its repeat: it has no due date');
        repeat = null;
      }
    }
    const planning = source.planning(context.checkPlanning, line, where, {
      dueDate,
      dueTime,
      repeat,
    });

    const createdAt = instant(cell(cells, 'Created Time'));
    const completedAt = instant(cell(cells, 'Completed Time'));
    const title = cell(cells, 'Title');
    const list = cell(cells, 'List Name');
    const taskId = cell(cells, 'taskId');
    const identity = taskId || `${list}\n${title}\n${cell(cells, 'Created Time')}`;
    const copies = seen.get(identity) ?? 0;
    seen.set(identity, copies + 1);
    if (taskId && copies > 0) {
      source.skip(line, where, `The same task (taskId ${taskId}) is in the file twice`);
      continue;
    }
    const group =
      list === '' || list.toLowerCase() === 'inbox' ? null : source.groupName(list, line, where);
    source.addTodo({
      line,
      where,
      key: `${identity}\n${copies}`,
      title,
      description: cells[column.get('Content') ?? -1] ?? null,
      group,
      completed,
      ...planning,
      createdAt,
      updatedAt: completedAt ?? createdAt,
      completions:
        completed && completedAt !== null ? [{ at: completedAt, dueDate: planning.dueDate }] : [],
    });
  }
  return source.file;
}
