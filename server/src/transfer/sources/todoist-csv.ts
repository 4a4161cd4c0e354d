import { dateInZone } from '../../shared/calendar.js';
import { badRequest } from '../../shared/errors.js';
import { type CsvRow, readCsv } from '../csv.js';
import { parseTodoistDate } from './todoist-dates.js';
import { type Planning, SourceBuilder, type SourceContext, type SourceFile } from './source.js';

/**
 * A Todoist project exported as a CSV template (the project's menu, "Export as a template",
 * CSV), as Todoist's help describes it: a header row TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,
 * AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE (newer exports add DURATION, DURATION_UNIT, DEADLINE,
 * DEADLINE_LANG), then one row per item, blank rows between them.
 *
 * - TYPE task → a todo; CONTENT the title, DESCRIPTION its description, DATE its due date, time
 *   and repeat (./todoist-dates.ts; relative dates from the caller's today).
 * - TYPE section → a group; the tasks after it go to it until the next section. Tasks before any
 *   section have no group.
 * - TYPE note → a comment: added to the description of the task above it.
 * - TYPE meta (view settings) and blank rows are ignored; any other TYPE is skipped.
 * - PRIORITY, INDENT (subtasks become todos of their own), AUTHOR, RESPONSIBLE, DURATION and
 *   DEADLINE have nothing to go to in Tally. A template holds open tasks only, and no ids: a row
 *   is known again by its section, content, description and date.
 */
export async function readTodoistCsv(text: string, context: SourceContext): Promise<SourceFile> {
  const source = new SourceBuilder();
  const rows = readCsv(text, source.file.skipped);
  try {
    return await readRows(rows, source, context);
  } finally {
    await rows.return(undefined);
  }
}

async function readRows(
  rows: AsyncGenerator<CsvRow>,
  source: SourceBuilder,
  context: SourceContext,
): Promise<SourceFile> {
  const first = await rows.next();
  const header = first.done ? undefined : first.value;
  const names = header?.cells.map((name) => name.trim().toUpperCase()) ?? [];
  if (!header || !names.includes('TYPE') || !names.includes('CONTENT')) {
    const start = header ? `; it starts with "${header.cells.slice(0, 4).join(',')}"` : '';
    throw badRequest(
      `This is not a Todoist CSV template: its first line must name the columns TYPE and CONTENT${start}`,
    );
  }
  const column = new Map(names.map((name, index) => [name, index]));
  const cell = (cells: string[], name: string) => {
    const index = column.get(name);
    return index === undefined ? '' : (cells[index] ?? '');
  };
  const today = dateInZone(context.now, context.zone);

  let group: string | null = null;
  const seen = new Map<string, number>();
  for await (const { line, cells } of rows) {
    const where = `line ${line}`;
    if (cells.every((value) => value.trim() === '')) continue;
    if (cells.length > names.length) {
      source.skip(
        line,
        where,
        `The row has ${cells.length} cells; the header names ${names.length}`,
      );
      continue;
    }
    const type = cell(cells, 'TYPE').trim().toLowerCase();
    const content = cell(cells, 'CONTENT');
    switch (type) {
      case 'meta':
        continue;
      case 'section':
        group = source.declareGroup({ name: content, color: null, createdAt: null }, line, where);
        if (group === null) source.skip(line, where, 'The section has no name');
        continue;
      case 'note': {
        const task = source.file.todos.at(-1);
        const note = content.trim();
        if (!task || task.line === null || note === '') {
          source.skip(line, where, 'A comment with no task above it');
          continue;
        }
        source.appendToDescription(task, note, line, where);
        continue;
      }
      case 'task':
        break;
      default:
        source.skip(line, where, `Its TYPE "${type}" is not task, section or note`);
        continue;
    }
    const dateText = cell(cells, 'DATE').trim();
    let planning: Planning = { dueDate: null, dueTime: null, repeat: null };
    if (dateText !== '') {
      const parsed = parseTodoistDate(dateText, today);
      if (parsed) {
        planning = source.planning(context.checkPlanning, line, where, parsed);
      } else {
        const language = cell(cells, 'DATE_LANG').trim();
        const note =
          language && language !== 'en' ? ` (in ${language}; dates are read in English)` : '';
        source.warn(
          line,
          where,
          `Its date "${dateText}"${note} is not understood: imported without a due date`,
        );
      }
    }
    const description = cell(cells, 'DESCRIPTION');
    const identity = [group ?? '', content, description, dateText].join('\n');
    const copies = seen.get(identity) ?? 0;
    seen.set(identity, copies + 1);
    source.addTodo({
      line,
      where,
      key: `${identity}\n${copies}`,
      title: content,
      description: description === '' ? null : description,
      group,
      completed: false,
      ...planning,
      createdAt: null,
      updatedAt: null,
      completions: [],
    });
  }
  return source.file;
}
