import { LIMITS } from '@tally/contract';
import { readQuickTags } from '@tally/contract/quick-add';
import { dateInZone } from '../../shared/calendar.js';
import { badRequest } from '../../shared/errors.js';
import type { CsvRow } from '../csv.js';
import { parseTodoistDate } from './todoist-dates.js';
import {
  type Planning,
  readCsvSource,
  type SourceBuilder,
  type SourceContext,
  type SourceFile,
  type SourceTodo,
} from './source.js';

/** Todoist's PRIORITY: 1 is p1, the highest (Tally's 3); 4 is p4, none. */
const PRIORITIES: Record<string, number> = { '1': 3, '2': 2, '3': 1, '4': 0 };

/**
 * A task's labels, written `@label` in its CONTENT (Todoist's CSV help), and the title without
 * them; the same rule as quick add's @tags (contract/src/quick-add.ts).
 */
function labelsOf(content: string): { title: string; tags: string[] } {
  const tags = readQuickTags(content, new Set());
  let title = content;
  for (const { range } of [...tags].reverse()) {
    title = `${title.slice(0, range[0])} ${title.slice(range[1])}`;
  }
  return { title: title.replace(/\s+/g, ' ').trim(), tags: tags.map((tag) => tag.name) };
}

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
 * - `@label` words in CONTENT → tags; PRIORITY 1 (p1, highest) → 3, 2 → 2, 3 → 1, 4 → 0;
 *   INDENT 2-4 → a subtask of the task above it one level less indented (deeper indents are
 *   kept at Tally's 4 levels, with a warning).
 * - AUTHOR, RESPONSIBLE, DURATION and DEADLINE have nothing to go to in Tally. A template holds open tasks only, and no ids: a row
 *   is known again by its section, content, description and date.
 */
export const readTodoistCsv = (text: string, context: SourceContext): Promise<SourceFile> =>
  readCsvSource(text, context, readRows);

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
  /** The last task read at each indent (index 0: INDENT 1), for the subtasks below it. */
  let levels: SourceTodo[] = [];
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
        levels = [];
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
    const { title, tags } = labelsOf(content);
    let indent = Math.max(1, Number.parseInt(cell(cells, 'INDENT').trim(), 10) || 1);
    if (indent > LIMITS.subtaskLevelsMax) {
      source.warn(
        line,
        where,
        `Indented ${indent} levels: kept at ${LIMITS.subtaskLevelsMax}, Tally's deepest`,
      );
      indent = LIMITS.subtaskLevelsMax;
    }
    // A task indented deeper than the one above it plus one hangs under the nearest above.
    const parent = levels.slice(0, indent - 1).at(-1) ?? null;
    const task = source.addTodo({
      line,
      where,
      key: `${identity}\n${copies}`,
      title,
      tags,
      priority: PRIORITIES[cell(cells, 'PRIORITY').trim()] ?? 0,
      parent,
      description: description === '' ? null : description,
      group,
      completed: false,
      ...planning,
      createdAt: null,
      updatedAt: null,
      completions: [],
    });
    if (task) levels = [...levels.slice(0, Math.min(indent - 1, levels.length)), task];
  }
  return source.file;
}
