import {
  type CsvMappingField,
  type ImportColumn,
  IMPORT_MAX_TODOS,
  LIMITS,
  TAG_NAME_PATTERN,
  type ImportSkip,
  type ImportWarning,
  type Repeat,
  type TodoSort,
  withThousands,
} from '@tally/contract';
import { parseDate } from '@tally/contract/dates';
import { cleanDescription } from '@tally/contract/todo-text';
import { badRequest } from '../../shared/errors.js';
import { type CsvRow, readCsv } from '../csv.js';

/**
 * What a source file holds, read into Tally's terms before anything touches the database: the
 * same shape for every format, so planning and writing (../import-service.ts) know no format.
 */
export interface SourceTodo {
  line: number | null;
  where: string;
  /** Names the source row across imports (its id, or its content): see keyOf in import-service. */
  key: string;
  title: string;
  description: string | null;
  /** The name of its group, as the file spells it. */
  group: string | null;
  completed: boolean;
  dueDate: string | null;
  dueTime: string | null;
  repeat: Repeat | null;
  /** Epoch ms, when the source knows them. */
  createdAt: number | null;
  updatedAt: number | null;
  /**
   * Completions the source recorded (a repeating todo may have many), oldest first; `onTime` as
   * the source says, or worked out from the due date when it says nothing.
   */
  completions: { at: number; dueDate: string | null; onTime?: boolean | null }[];
  /** Its tags, as the file spells them; none when absent. */
  tags?: string[];
  /** 0 none … 3 high, in Tally's terms; 0 when absent. */
  priority?: number;
  /** The todo of this file it is a subtask of; none at the top level. */
  parent?: SourceTodo | null;
  /** YYYY-MM-DD: hidden until this day; none when absent. */
  startDate?: string | null;
  /** Its place in the manual order (Tally's export); newest first when absent. */
  position?: number;
  /** How many minutes it takes (Tally's export); none when absent. */
  durationMinutes?: number | null;
  /** Its reminders, minutes before the due time, largest first (Tally's export); none when absent. */
  reminders?: number[];
}

/** A duration the API would take, else none: a hand-edited file cannot store what a client can't. */
export const durationOf = (value: unknown) =>
  Number.isInteger(value) &&
  (value as number) >= 1 &&
  (value as number) <= LIMITS.durationMinutesMax
    ? (value as number)
    : null;

/**
 * The reminders the API would take, largest first, else none: each an offset 0 up to a week, at
 * most five, and only with a due time (a hand-edited file cannot store what a client can't).
 */
export function remindersOf(value: unknown, dueTime: string | null): number[] {
  if (dueTime === null || !Array.isArray(value)) return [];
  const offsets = value.filter(
    (minutes): minutes is number =>
      Number.isInteger(minutes) && minutes >= 0 && minutes <= LIMITS.remindMinutesBeforeMax,
  );
  return [...new Set(offsets)].sort((a, b) => b - a).slice(0, LIMITS.remindersPerTodoMax);
}

/** A tag the file declares with its colour (Tally's export, version 2). */
export interface SourceTag {
  name: string;
  color: string | null;
  /** Epoch ms, when the source knows it. */
  createdAt: number | null;
}

/** A sort the file's user chose for a view: a view by its name, or a group's view by its name. */
export interface SourceSort {
  view: string | { group: string };
  sort: TodoSort;
}

export interface SourceGroup {
  name: string;
  /** As the file has it (any hex colour), or null when the source has no colours. */
  color: string | null;
  /** Epoch ms, when the source knows it. */
  createdAt: number | null;
}

export interface SourceFile {
  /** Groups the file declares, in its order (Tally groups, Todoist sections), even if empty. */
  groups: SourceGroup[];
  todos: SourceTodo[];
  skipped: ImportSkip[];
  warnings: ImportWarning[];
  /** Tags the file declares with a colour; a todo's tags need not be declared. */
  tags?: SourceTag[];
  sorts?: SourceSort[];
  /** Tally's saved filters (export version 3), by position. */
  savedFilters?: { name: string; color: string; query: string }[];
  /** Any CSV: each column of the file and the field it became. */
  columns?: ImportColumn[];
}

export interface Planning {
  dueDate: string | null;
  dueTime: string | null;
  repeat: Repeat | null;
}

/** Checks and completes a due date, time and repeat as the todo calls do; throws a 400 if bad. */
export type CheckPlanning = (planning: Planning) => Planning;

/** What every format needs besides the file: the day to read relative dates from, and so on. */
export interface SourceContext {
  /** Now, epoch ms. */
  now: number;
  /** The caller's IANA zone (dates without one are the caller's days). */
  zone: string;
  checkPlanning: CheckPlanning;
  /** Any CSV: the column (by header) each field comes from, as the caller chose. */
  mapping?: Partial<Record<CsvMappingField, string>>;
}

// With the u flag a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /\p{Surrogate}/gu;
// eslint-disable-next-line no-control-regex -- NUL cannot be stored by PostgreSQL.
const NUL = /\u0000/g;

/** Text as the database can keep it: no NUL, no unpaired surrogate, trimmed. */
const cleanText = (value: string) =>
  value.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD').trim();

/** The first `max` characters (code points, as the API's limits count them). */
function cut(value: string, max: number): { text: string; cut: boolean } {
  const chars = Array.from(value);
  return chars.length <= max
    ? { text: value, cut: false }
    : { text: chars.slice(0, max).join('').trimEnd(), cut: true };
}

const TAG_NAME = new RegExp(TAG_NAME_PATTERN, 'u');

/**
 * Reads a CSV source: its rows, read by `readRows` into a builder, are closed however it ends
 * (a 400 part-way stops the reading at once).
 */
export async function readCsvSource(
  text: string,
  context: SourceContext,
  readRows: (
    rows: AsyncGenerator<CsvRow>,
    source: SourceBuilder,
    context: SourceContext,
  ) => Promise<SourceFile>,
): Promise<SourceFile> {
  const source = new SourceBuilder();
  const rows = readCsv(text, source.file.skipped);
  try {
    return await readRows(rows, source, context);
  } finally {
    await rows.return(undefined);
  }
}

/**
 * How a file names a todo and its parent (Google's task ids, an iCalendar UID, the ids of
 * Tally's JSON, any JSON value there): equal ids are the same todo; null or undefined, none.
 */
export interface FileIds {
  id: unknown;
  parentId: unknown;
}

/**
 * Collects a file's todos, skips and warnings while a format reads it, and makes the texts fit
 * Tally's limits (a longer title or description is cut, with a warning).
 */
export class SourceBuilder {
  readonly file: SourceFile = { groups: [], todos: [], skipped: [], warnings: [] };
  private readonly declared = new Set<string>();
  /** Each todo by its id in the file, and the id each subtask gives for its parent. */
  private readonly byFileId = new Map<unknown, SourceTodo>();
  private readonly parentIds = new Map<SourceTodo, unknown>();

  skip(line: number | null, where: string, reason: string): void {
    this.file.skipped.push({ line, where, reason });
  }

  warn(line: number | null, where: string, message: string): void {
    this.file.warnings.push({ line, where, message });
  }

  /** A group the file declares; its name cleaned and cut to the limit. Null for a blank name. */
  declareGroup(group: SourceGroup, line: number | null, where: string): string | null {
    const name = this.groupName(group.name, line, where);
    if (name === null) return null;
    const lower = name.toLowerCase();
    if (!this.declared.has(lower)) {
      this.declared.add(lower);
      this.file.groups.push({ ...group, name });
    }
    return name;
  }

  /** A group name as Tally keeps it (cleaned, cut to 50 characters); null when blank. */
  groupName(raw: string, line: number | null, where: string): string | null {
    const cleaned = cleanText(raw);
    if (cleaned === '') return null;
    const { text, cut: wasCut } = cut(cleaned, LIMITS.groupNameMax);
    if (wasCut) {
      this.warn(line, where, `The group name was cut to ${LIMITS.groupNameMax} characters`);
    }
    return text;
  }

  /**
   * Adds a todo with its texts cleaned and cut to Tally's limits, and returns it; skips it (null)
   * when its title is blank. The todo after the import's limit ends the reading with a 400 at
   * once: the rest of the file is never read. A file that names parents by id gives `ids`: the
   * parent is found wherever it stands in the file, once every todo is read (settleParents).
   */
  addTodo(todo: SourceTodo, ids?: FileIds): SourceTodo | null {
    const title = cleanText(todo.title);
    if (title === '') {
      this.skip(todo.line, todo.where, 'It has no title');
      return null;
    }
    if (this.file.todos.length >= IMPORT_MAX_TODOS) {
      const most = withThousands(IMPORT_MAX_TODOS);
      throw badRequest(`The file has more than ${most} todos; an import takes at most ${most}`);
    }
    const shortTitle = cut(title, LIMITS.todoTitleMax);
    if (shortTitle.cut) {
      this.warn(todo.line, todo.where, `The title was cut to ${LIMITS.todoTitleMax} characters`);
    }
    const description = todo.description === null ? '' : cleanText(todo.description);
    const shortDescription = cut(description, LIMITS.todoDescriptionMax);
    if (shortDescription.cut) {
      this.warn(
        todo.line,
        todo.where,
        `The description was cut to ${LIMITS.todoDescriptionMax} characters`,
      );
    }
    const added: SourceTodo = {
      ...todo,
      title: shortTitle.text,
      description: cleanDescription(shortDescription.text),
    };
    this.file.todos.push(added);
    if (ids?.id !== undefined && ids.id !== null) this.byFileId.set(ids.id, added);
    if (ids?.parentId !== undefined && ids.parentId !== null) {
      this.parentIds.set(added, ids.parentId);
    }
    return added;
  }

  /**
   * The tags as Tally keeps them: names of 1-30 characters without spaces or commas, once each
   * whatever their case (the first spelling kept), at most 20; the others left out with a warning.
   */
  tags(names: readonly string[], line: number | null, where: string): string[] {
    const kept = new Map<string, string>();
    const invalid: string[] = [];
    for (const raw of names) {
      const name = cleanText(raw).replace(/^#/, '');
      if (name === '') continue;
      if (!TAG_NAME.test(name)) invalid.push(name);
      else if (!kept.has(name.toLowerCase())) kept.set(name.toLowerCase(), name);
    }
    if (invalid.length > 0) {
      this.warn(
        line,
        where,
        `Imported without the tags ${invalid.map((name) => `"${name}"`).join(', ')}: a tag is 1-${LIMITS.tagNameMax} characters without spaces or commas`,
      );
    }
    const tags = [...kept.values()];
    if (tags.length > LIMITS.tagsPerTodoMax) {
      this.warn(
        line,
        where,
        `It has ${tags.length} tags; a todo keeps ${LIMITS.tagsPerTodoMax}: the first ${LIMITS.tagsPerTodoMax} imported`,
      );
    }
    return tags.slice(0, LIMITS.tagsPerTodoMax);
  }

  /** A start date as the todo calls take it; null with a warning when it is not a day. */
  startDate(value: string | null, line: number | null, where: string): string | null {
    if (value === null || value === '') return null;
    if (/^\d{4}-\d{2}-\d{2}$/.test(value) && parseDate(value)) return value;
    this.warn(line, where, `Its start date "${value}" is not a date: imported without one`);
    return null;
  }

  /**
   * Once every todo is read: each subtask named by its parent's id is linked to it; one whose
   * parent is not in the file, would make a loop, or would sit deeper than Tally's 4 levels,
   * goes to the top level with a warning (a file need not be Tally's own).
   */
  settleParents(): void {
    for (const [todo, parentId] of this.parentIds) {
      const parent = this.byFileId.get(parentId);
      if (parent) todo.parent = parent;
      else {
        this.warn(
          todo.line,
          todo.where,
          `Its parent (id ${JSON.stringify(parentId)}) is not in the file: imported at the top level`,
        );
      }
    }
    // Loops first: walking up from a todo of a loop comes back to it.
    for (const todo of this.file.todos) {
      const seen = new Set<SourceTodo>();
      let up = todo.parent;
      while (up && up !== todo && !seen.has(up)) {
        seen.add(up);
        up = up.parent;
      }
      if (up === todo) {
        this.warn(
          todo.line,
          todo.where,
          'Its parent is its own subtask: imported at the top level',
        );
        todo.parent = null;
      }
    }
    for (const todo of this.file.todos) {
      let depth = 1;
      for (let up = todo.parent; up; up = up.parent) depth += 1;
      if (depth > LIMITS.subtaskLevelsMax) {
        this.warn(
          todo.line,
          todo.where,
          `It is nested deeper than ${LIMITS.subtaskLevelsMax} levels: imported at the top level`,
        );
        todo.parent = null;
      }
    }
  }

  /** Adds a comment to a todo's description (Todoist's notes), within the length limit. */
  appendToDescription(todo: SourceTodo, text: string, line: number, where: string): void {
    const joined = todo.description ? `${todo.description}\n\n${cleanText(text)}` : cleanText(text);
    const { text: description, cut: wasCut } = cut(joined, LIMITS.todoDescriptionMax);
    if (wasCut) {
      this.warn(
        line,
        where,
        `The comment was cut: a description holds ${LIMITS.todoDescriptionMax} characters`,
      );
    }
    todo.description = description;
  }

  /**
   * The due date, time and repeat checked as the todo calls check them. What does not pass is
   * dropped with a warning (the repeat first, then the time, then the date), never the todo.
   */
  planning(check: CheckPlanning, line: number | null, where: string, planning: Planning): Planning {
    const attempts = [
      planning,
      { ...planning, repeat: null },
      { ...planning, repeat: null, dueTime: null },
      { dueDate: null, dueTime: null, repeat: null },
    ];
    let problem = '';
    for (const attempt of attempts) {
      try {
        const checked = check(attempt);
        const lost = [
          planning.dueDate !== null && attempt.dueDate === null ? 'due date' : null,
          planning.dueTime !== null && attempt.dueTime === null ? 'due time' : null,
          planning.repeat !== null && attempt.repeat === null ? 'repeat' : null,
        ].filter((part) => part !== null);
        if (lost.length > 0) {
          this.warn(line, where, `Imported without its ${lost.join(', ')}: ${problem}`);
        }
        return checked;
      } catch (error) {
        problem ||= error instanceof Error ? error.message : String(error);
      }
    }
    return { dueDate: null, dueTime: null, repeat: null };
  }
}
