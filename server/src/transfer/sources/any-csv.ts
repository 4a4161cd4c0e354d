import { CSV_MAPPING_FIELDS, type CsvMappingField, type ImportColumn } from '@tally/contract';
import { parseDate } from '@tally/contract/dates';
import { badRequest } from '../../shared/errors.js';
import type { CsvRow } from '../csv.js';
import {
  readCsvSource,
  type SourceBuilder,
  type SourceContext,
  type SourceFile,
} from './source.js';

/** Which column (by its header) each field comes from. */
export type CsvMapping = Partial<Record<CsvMappingField, string>>;

/**
 * Headers taken for a field when no mapping is given, compared without case, spaces, dashes
 * and underscores: the words spreadsheets and other apps' exports use.
 */
const SYNONYMS: Record<CsvMappingField, string[]> = {
  title: ['title', 'task', 'taskname', 'name', 'subject', 'content', 'summary', 'todo', 'item'],
  description: ['description', 'notes', 'note', 'details', 'body', 'comment', 'comments'],
  group: ['group', 'list', 'listname', 'project', 'folder', 'category', 'section'],
  completed: ['completed', 'done', 'status', 'complete', 'finished', 'checked'],
  dueDate: ['duedate', 'due', 'deadline', 'date', 'duedatetime'],
  dueTime: ['duetime', 'time'],
  tags: ['tags', 'tag', 'labels', 'label', 'keywords'],
  priority: ['priority', 'importance'],
  startDate: ['startdate', 'start'],
};
const squash = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, '');

const DONE = new Set(['true', 'yes', 'y', '1', 'x', 'done', 'completed', 'complete', '✓', '✔']);
const PRIORITY_WORDS: Record<string, number> = {
  none: 0,
  low: 1,
  medium: 2,
  normal: 2,
  high: 3,
  urgent: 3,
};

/** The mapping of the form's `mapping` field; a 400 naming it when it is not one. */
export function parseMapping(value: string | undefined): CsvMapping | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw badRequest('mapping must be a JSON object from field to column, e.g. {"title":"Task"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('mapping must be a JSON object from field to column, e.g. {"title":"Task"}');
  }
  const mapping: CsvMapping = {};
  for (const [field, column] of Object.entries(parsed)) {
    if (!(CSV_MAPPING_FIELDS as readonly string[]).includes(field)) {
      throw badRequest(
        `mapping: "${field}" is not a field; the fields are ${CSV_MAPPING_FIELDS.join(', ')}`,
      );
    }
    if (typeof column !== 'string' || column.trim() === '') {
      throw badRequest(`mapping: ${field} must name a column of the file`);
    }
    mapping[field as CsvMappingField] = column;
  }
  return mapping;
}

/** A date cell: YYYY-MM-DD (or with / or .), an ISO date-time; the time when it has one. */
function readDate(value: string): { date: string; time: string | null } | null {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ](\d{1,2}):(\d{2}))?/.exec(value.trim());
  if (!m) return null;
  const [, year = '', month = '', day = '', hours, minutes = '00'] = m;
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  if (!parseDate(date)) return null;
  const time = hours === undefined ? null : `${hours.padStart(2, '0')}:${minutes}`;
  return { date, time: time === '00:00' ? null : time };
}

/** A time cell: 24-hour HH:mm, or h:mm with am/pm. */
function readTime(value: string): string | null {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/i.exec(value.trim());
  if (!m || (m[2] === undefined && m[3] === undefined)) return null;
  let hours = Number(m[1]);
  const minutes = Number(m[2] ?? 0);
  const half = m[3]?.toLowerCase();
  if (half) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === 'pm' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/**
 * Any CSV with a header row: each field comes from the column the mapping names (chosen in the
 * web app), or, without one, from the column whose header is the field's name or a usual word
 * for it (Task, Notes, List, Due…). The report lists each column and the field it became.
 *
 * - title is required; a row without one is skipped.
 * - completed: true, yes, 1, x, done, completed (any case) are done; anything else open.
 * - dueDate and startDate: YYYY-MM-DD (or / and . between), or an ISO date-time, whose time is
 *   the due time; other spellings (03/04/2025 is two different days) are left out with a warning.
 * - dueTime: 14:30 or 2:30 pm. tags: split on commas, semicolons and spaces.
 * - priority: 0-3, or none, low, medium, high (urgent is high).
 * A row is known again by its cells and its occurrence among equal rows.
 */
export const readAnyCsv = (text: string, context: SourceContext): Promise<SourceFile> =>
  readCsvSource(text, context, readRows);

async function readRows(
  rows: AsyncGenerator<CsvRow>,
  source: SourceBuilder,
  context: SourceContext,
): Promise<SourceFile> {
  const first = await rows.next();
  if (first.done) throw badRequest('The file has no header row');
  const headers = first.value.cells.map((cell) => cell.trim());
  const index = new Map<CsvMappingField, number>();
  if (context.mapping) {
    for (const [field, column] of Object.entries(context.mapping) as [CsvMappingField, string][]) {
      const at = headers.indexOf(column.trim());
      if (at === -1) {
        throw badRequest(`mapping: the file has no column "${column}" (for ${field})`);
      }
      index.set(field, at);
    }
  } else {
    const taken = new Set<number>();
    for (const field of CSV_MAPPING_FIELDS) {
      for (const word of SYNONYMS[field]) {
        const at = headers.findIndex((header, i) => !taken.has(i) && squash(header) === word);
        if (at !== -1) {
          index.set(field, at);
          taken.add(at);
          break;
        }
      }
    }
  }
  if (context.mapping && !index.has('title')) {
    throw badRequest("mapping: title is required: the column that holds each todo's title");
  }
  const fieldOf = new Map([...index].map(([field, at]) => [at, field]));
  source.file.columns = headers.map((column, at): ImportColumn => ({
    column,
    field: fieldOf.get(at) ?? null,
  }));
  if (!index.has('title')) {
    // The preview then shows the columns, so the caller can choose the one holding titles.
    source.skip(
      first.value.line,
      `line ${first.value.line}`,
      'No column is the title: choose the column that holds the titles',
    );
    return source.file;
  }
  const cell = (cells: string[], field: CsvMappingField) => {
    const at = index.get(field);
    return at === undefined ? '' : (cells[at] ?? '').trim();
  };

  const seen = new Map<string, number>();
  for await (const { line, cells } of rows) {
    const where = `line ${line}`;
    if (cells.every((value) => value.trim() === '')) continue;
    const identity = cells.join('\u0000');
    const copies = seen.get(identity) ?? 0;
    seen.set(identity, copies + 1);

    let dueDate: string | null = null;
    let dueTime: string | null = null;
    const dueText = cell(cells, 'dueDate');
    if (dueText !== '') {
      const read = readDate(dueText);
      if (read) ({ date: dueDate, time: dueTime } = read);
      else {
        source.warn(
          line,
          where,
          `Its due date "${dueText}" is not YYYY-MM-DD: imported without one`,
        );
      }
    }
    const timeText = cell(cells, 'dueTime');
    if (timeText !== '') {
      const time = readTime(timeText);
      if (time) dueTime = time;
      else
        source.warn(line, where, `Its due time "${timeText}" is not a time: imported without one`);
    }
    const planning = source.planning(context.checkPlanning, line, where, {
      dueDate,
      dueTime: dueDate === null ? null : dueTime,
      repeat: null,
    });
    const startText = cell(cells, 'startDate');
    const start = startText === '' ? null : (readDate(startText)?.date ?? startText);
    const priorityText = cell(cells, 'priority').toLowerCase();
    let priority = 0;
    if (priorityText !== '') {
      const number = Number(priorityText);
      if (Number.isInteger(number) && number >= 0) priority = Math.min(3, number);
      else if (priorityText in PRIORITY_WORDS) priority = PRIORITY_WORDS[priorityText] ?? 0;
      else
        source.warn(
          line,
          where,
          `Its priority "${priorityText}" is not 0-3 or none, low, medium, high: imported without one`,
        );
    }
    const description = cell(cells, 'description');
    source.addTodo({
      line,
      where,
      key: `${identity}\n${copies}`,
      title: cell(cells, 'title'),
      description: description === '' ? null : description,
      group: cell(cells, 'group') || null,
      completed: DONE.has(cell(cells, 'completed').toLowerCase()),
      ...planning,
      startDate: source.startDate(start, line, where),
      tags: source.tags(cell(cells, 'tags').split(/[,;\s]+/), line, where),
      priority,
      createdAt: null,
      updatedAt: null,
      completions: [],
    });
  }
  return source.file;
}
