import { localDateTime, resolveTimeZone } from '../../shared/calendar.js';
import { badRequest } from '../../shared/errors.js';
import type { CsvRow } from '../csv.js';
import { repeatOfRrule } from './rrule.js';
import {
  readCsvSource,
  type SourceBuilder,
  type SourceContext,
  type SourceFile,
} from './source.js';

/**
 * TickTick's backup CSV (Settings, Backup & Import, Generate backup). TickTick publishes no
 * specification; this reads the layout its backups have (versions 7.1 and 7.2): a few preamble
 * lines ("Date: …", "Version: …", a "Status: …" legend), then a header row beginning
 * "Folder Name","List Name","Title","Kind",… and a row per task. Columns are found by name.
 *
 * - List Name → group ("Inbox", TickTick's default list, → no group); Folder Name is not kept.
 * - Kind NOTE rows are notes, not tasks: skipped. TEXT and CHECKLIST rows are todos; a
 *   checklist's items (lines of Content starting ▫ open or ▪ done) become its subtasks, its other
 *   lines its description. Content → the description.
 * - Tags (comma-separated) → tags; Priority 0 none, 1 low, 3 medium, 5 high → 0, 1, 2, 3.
 * - parentId (another row's taskId) → a subtask of that row, wherever it is in the file.
 * - Status 0 → open; 1 and 2 → completed (at Completed Time); -1 ("won't do") → skipped.
 * - Due Date (an instant) → the due date, and the time unless Is All Day, in the row's Timezone.
 * - Repeat (an RRULE) → the repeat, when Tally has an equivalent (./rrule.ts).
 * - Created Time → when the todo was made; taskId names the row across imports.
 * - Reminder and Start Date (the start of a task's time span, not a "hidden until" day): Tally
 *   has no such thing.
 */

const REQUIRED = ['List Name', 'Title'] as const;
/** TickTick's Priority: 0 none, 1 low, 3 medium, 5 high. */
const PRIORITIES: Record<string, number> = { '0': 0, '1': 1, '3': 2, '5': 3 };
/**
 * A checklist item in Content: ▫ (U+25AB) open, ▪ (U+25AA) done, as TickTick's backup writes
 * them. Escaped: esbuild leaves a regular expression's letters as written, and one non-ASCII
 * letter in the server's bundle makes V8 keep all its source as UTF-16 (scripts/bundle-server.mjs).
 */
const CHECKLIST_ITEM = /^([\u25AB\u25AA])\s*(.*)$/u;
/** The header row is among the first 21 (index 0-20). */
const HEADER_WITHIN = 20;

/** "2026-03-15T09:00:00+0000" (TickTick's form) or any ISO 8601 instant; null if not one. */
function instant(value: string | undefined): number | null {
  if (!value) return null;
  const iso = value.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
}

export const readTickTickCsv = (text: string, context: SourceContext): Promise<SourceFile> =>
  readCsvSource(text, context, readRows);

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
    const priorityText = cell(cells, 'Priority') || '0';
    const priority = PRIORITIES[priorityText];
    if (priority === undefined) {
      source.warn(
        line,
        where,
        `Its Priority "${priorityText}" is not 0, 1, 3 or 5: imported without one`,
      );
    }
    const content = cells[column.get('Content') ?? -1] ?? '';
    const checklist = kind === 'CHECKLIST' ? checklistOf(content) : null;
    const task = source.addTodo(
      {
        line,
        where,
        key: `${identity}\n${copies}`,
        title,
        description: checklist ? checklist.description : content,
        group,
        completed,
        ...planning,
        tags: source.tags(cell(cells, 'Tags').split(','), line, where),
        priority: priority ?? 0,
        createdAt,
        updatedAt: completedAt ?? createdAt,
        completions:
          completed && completedAt !== null ? [{ at: completedAt, dueDate: planning.dueDate }] : [],
      },
      { id: taskId || null, parentId: cell(cells, 'parentId') || null },
    );
    if (!task) continue;
    for (const [index, item] of (checklist?.items ?? []).entries()) {
      // An item has no time of its own: done when the checklist was, or when it was.
      const at = completedAt ?? createdAt;
      source.addTodo({
        line,
        where: `${where}, item ${index + 1}`,
        key: `${identity}\n${copies}\nitem ${index}`,
        title: item.title,
        description: null,
        group,
        completed: item.done,
        dueDate: null,
        dueTime: null,
        repeat: null,
        parent: task,
        createdAt,
        updatedAt: at,
        completions: item.done && at !== null ? [{ at, dueDate: null }] : [],
      });
    }
  }
  source.settleParents();
  return source.file;
}

/** A checklist's Content: its items (▫ open, ▪ done) and the other lines, its description. */
function checklistOf(content: string) {
  const items: { title: string; done: boolean }[] = [];
  const rest: string[] = [];
  for (const line of content.split(/\r?\n/)) {
    const item = CHECKLIST_ITEM.exec(line.trim());
    if (item) items.push({ title: item[2] ?? '', done: item[1] === '▪' });
    else rest.push(line);
  }
  const description = rest.join('\n').trim();
  return { items, description: description === '' ? null : description };
}
