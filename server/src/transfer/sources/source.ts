import {
  IMPORT_MAX_TODOS,
  LIMITS,
  type ImportSkip,
  type ImportWarning,
  type Repeat,
  withThousands,
} from '@tally/contract';
import { cleanDescription } from '@tally/contract/todo-text';
import { badRequest } from '../../shared/errors.js';

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
  /** Its tags (issue 29), as the file spells them; none when absent. */
  tags?: string[];
  /** 0 none … 3 high, in Tally's terms; 0 when absent. */
  priority?: number;
  /** The todo of this file it is a subtask of (read before it); none at the top level. */
  parent?: SourceTodo | null;
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

/**
 * Collects a file's todos, skips and warnings while a format reads it, and makes the texts fit
 * Tally's limits (a longer title or description is cut, with a warning).
 */
export class SourceBuilder {
  readonly file: SourceFile = { groups: [], todos: [], skipped: [], warnings: [] };
  private readonly declared = new Set<string>();

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
   * Adds a todo with its texts cleaned and cut to Tally's limits; skips it (false) when its
   * title is blank. The todo after the import's limit ends the reading with a 400 at once: the
   * rest of the file is never read.
   */
  addTodo(todo: SourceTodo): boolean {
    const title = cleanText(todo.title);
    if (title === '') {
      this.skip(todo.line, todo.where, 'It has no title');
      return false;
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
    this.file.todos.push({
      ...todo,
      title: shortTitle.text,
      description: cleanDescription(shortDescription.text),
    });
    return true;
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
