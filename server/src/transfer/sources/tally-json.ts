import {
  EXPORT_VERSIONS_READ,
  FILTER_QUERY_MAX,
  GROUP_COLORS,
  LIMITS,
  RepeatSchema,
  SORT_VIEW_PATTERN,
  TODO_SORTS,
  type Repeat,
  type TodoSort,
  withThousands,
} from '@tally/contract';
import { Value } from '@sinclair/typebox/value';
import { badRequest } from '../../shared/errors.js';
import { timeSlicer } from '../../shared/time-slices.js';
import {
  SourceBuilder,
  type SourceContext,
  type SourceFile,
  type SourceSort,
  type SourceTag,
  type SourceTodo,
  durationOf,
  remindersOf,
} from './source.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An ISO 8601 instant as epoch ms; null when absent or not one. */
function instant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** A completed todo the file has no completion of: completed at its last change. */
function completedAt(todo: Json, dueDate: string | null) {
  const at = instant(todo.updatedAt);
  return todo.completed === true && at !== null ? [{ at, dueDate }] : [];
}

const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** Completions kept per todo (its latest) and per import: a file cannot make rows without end. */
const IMPORT_MAX_COMPLETIONS_PER_TODO = 100;
const IMPORT_MAX_COMPLETIONS = 100_000;

/**
 * The furthest from zero a position of the file is kept as it is. A move puts a todo at the
 * midpoint of its neighbours (server/src/todos/service.ts, slotBeside), which overflows to
 * Infinity (answered as `position: null`) between two beyond about 9e307; the positions Tally
 * writes (minus a creation time in ms, or 1024 apart) are far inside this.
 */
const POSITION_MAX = Number.MAX_SAFE_INTEGER;

/**
 * A file with a position beyond POSITION_MAX has every position numbered anew, 1024 apart in
 * the file's order (equal ones staying equal), so the manual order it describes is kept.
 */
function boundPositions(todos: SourceTodo[]): void {
  const placed = todos.filter(
    (todo): todo is SourceTodo & { position: number } => todo.position !== undefined,
  );
  if (placed.every((todo) => Math.abs(todo.position) <= POSITION_MAX)) return;
  // Compared, not subtracted: Infinity - Infinity is NaN.
  placed.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  let rank = 0;
  let previous: number | undefined;
  for (const todo of placed) {
    if (previous !== undefined && todo.position !== previous) rank += 1;
    previous = todo.position;
    todo.position = rank * 1024;
  }
}

const SORT_VIEW = new RegExp(SORT_VIEW_PATTERN);
const isSort = (value: unknown): value is TodoSort =>
  (TODO_SORTS as readonly unknown[]).includes(value);

/**
 * Tally's own export (contract/src/account.ts, AccountExportSchema, versions 1 to 3), as the
 * account export writes it. Only what makes todos and groups is read: groups by name and colour,
 * todos with their planning, completed state, times and completions; version 2 adds each todo's
 * tags, priority, parent, start date and place in the manual order, the tags' colours and the
 * sort chosen per view. Ids in the file only tie its todos to its groups, parents and
 * completions: nothing is looked up by them, so a file of another account's ids never reaches
 * that account's rows. Fields a later version adds are ignored.
 */
export async function readTallyJson(text: string, context: SourceContext): Promise<SourceFile> {
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    throw badRequest(`The file is not valid JSON${detail}`);
  }
  if (!isObject(document) || !('version' in document)) {
    throw badRequest(
      'This is not a Tally export: a Tally export is a JSON object with "version", "groups" and "todos"',
    );
  }
  if (!(EXPORT_VERSIONS_READ as readonly unknown[]).includes(document.version)) {
    throw badRequest(
      `This Tally export is version ${JSON.stringify(document.version)}; this server reads versions ${EXPORT_VERSIONS_READ.slice(0, -1).join(', ')} and ${EXPORT_VERSIONS_READ.at(-1)}`,
    );
  }
  if (!Array.isArray(document.todos)) throw badRequest('The export has no "todos" list');
  const groups = document.groups ?? [];
  if (!Array.isArray(groups)) throw badRequest('The export\'s "groups" is not a list');
  const completions = document.completions ?? [];
  if (!Array.isArray(completions)) throw badRequest('The export\'s "completions" is not a list');

  const source = new SourceBuilder();
  const pause = timeSlicer();

  const groupNames = new Map<unknown, string>();
  groups.forEach((group: unknown, index) => {
    const where = `group ${index + 1}`;
    if (!isObject(group) || typeof group.name !== 'string') {
      source.skip(null, where, 'The group has no name');
      return;
    }
    const name = source.declareGroup(
      { name: group.name, color: stringOrNull(group.color), createdAt: instant(group.createdAt) },
      null,
      where,
    );
    if (name === null) source.skip(null, where, 'The group has no name');
    else if (typeof group.id === 'number') groupNames.set(group.id, name);
  });

  // Completions by the todo id they name. One without a todo id names no todo: it is not
  // every id-less todo's (a file of N such todos and M such completions made N x M rows).
  type Completions = SourceFile['todos'][number]['completions'];
  const completionsOf = new Map<unknown, Completions>();
  let unnamed = 0;
  for (const completion of completions) {
    await pause();
    if (!isObject(completion) || completion.todoId === undefined) continue;
    const at = instant(completion.completedAt);
    if (at === null) continue;
    if (completion.todoId === null) {
      unnamed += 1;
      continue;
    }
    const list = completionsOf.get(completion.todoId) ?? [];
    list.push({
      at,
      dueDate: stringOrNull(completion.dueDate),
      onTime: typeof completion.onTime === 'boolean' ? completion.onTime : null,
    });
    completionsOf.set(completion.todoId, list);
  }
  const claimed = new Set<unknown>();
  let kept = 0;
  let overImportLimit = 0;
  /** A todo's completions within the limits, oldest first; what is left out, as a skip. */
  const limited = (list: Completions, where: string): Completions => {
    let within = [...list].sort((a, b) => a.at - b.at);
    if (within.length > IMPORT_MAX_COMPLETIONS_PER_TODO) {
      source.skip(
        null,
        where,
        `It has ${withThousands(within.length)} completions; an import keeps the latest ${IMPORT_MAX_COMPLETIONS_PER_TODO} of a todo: ${withThousands(within.length - IMPORT_MAX_COMPLETIONS_PER_TODO)} left out`,
      );
      within = within.slice(-IMPORT_MAX_COMPLETIONS_PER_TODO);
    }
    const room = Math.max(0, IMPORT_MAX_COMPLETIONS - kept);
    if (within.length > room) {
      overImportLimit += within.length - room;
      within = within.slice(within.length - room);
    }
    kept += within.length;
    return within;
  };

  readTags(document.tags, source);

  const seen = new Map<string, number>();
  for (const [index, todo] of (document.todos as unknown[]).entries()) {
    await pause();
    const where = `todo ${index + 1}`;
    if (!isObject(todo)) {
      source.skip(null, where, 'It is not a todo (an object with a title)');
      continue;
    }
    if (typeof todo.title !== 'string') {
      source.skip(null, where, 'It has no title');
      continue;
    }
    let group: string | null = null;
    if (todo.groupId !== null && todo.groupId !== undefined) {
      group = groupNames.get(todo.groupId) ?? null;
      if (group === null) {
        source.warn(
          null,
          where,
          `Its group (id ${JSON.stringify(todo.groupId)}) is not in the file: imported without a group`,
        );
      }
    }
    let repeat: Repeat | null = null;
    if (todo.repeat !== null && todo.repeat !== undefined) {
      if (Value.Check(RepeatSchema, todo.repeat)) repeat = todo.repeat;
      else source.warn(null, where, 'Its repeat rule is not one Tally knows: imported without it');
    }
    const planning = source.planning(context.checkPlanning, null, where, {
      dueDate: stringOrNull(todo.dueDate),
      dueTime: stringOrNull(todo.dueTime),
      repeat,
    });
    const createdAt = instant(todo.createdAt);
    // The same todo in two files (or twice in one) is the same row: its id and creation time.
    const identity = `${JSON.stringify(todo.id ?? null)}\n${todo.createdAt ?? ''}`;
    const copies = seen.get(identity) ?? 0;
    seen.set(identity, copies + 1);
    if (copies > 0 && todo.id !== undefined) {
      source.skip(
        null,
        where,
        `The same todo (id ${JSON.stringify(todo.id)}) is in the file twice`,
      );
      continue;
    }
    const own = todo.id === undefined || todo.id === null ? undefined : completionsOf.get(todo.id);
    if (own) claimed.add(todo.id);
    source.addTodo(
      {
        line: null,
        where,
        key: `${identity}\n${copies}`,
        title: todo.title,
        description: stringOrNull(todo.description),
        group,
        completed: todo.completed === true,
        ...planning,
        tags: source.tags(
          Array.isArray(todo.tags) ? todo.tags.filter((tag) => typeof tag === 'string') : [],
          null,
          where,
        ),
        priority: [0, 1, 2, 3].includes(todo.priority as number) ? (todo.priority as number) : 0,
        startDate: source.startDate(stringOrNull(todo.startDate), null, where),
        durationMinutes: durationOf(todo.durationMinutes),
        reminders: remindersOf(todo.reminders, planning.dueTime),
        // JSON.parse reads 1.8e308 as Infinity: kept, for boundPositions to place it last.
        ...(typeof todo.position === 'number' && !Number.isNaN(todo.position)
          ? { position: todo.position }
          : {}),
        createdAt,
        updatedAt: instant(todo.updatedAt),
        completions: limited(own ?? completedAt(todo, planning.dueDate), where),
      },
      { id: todo.id, parentId: todo.parentId },
    );
  }
  source.settleParents();
  boundPositions(source.file.todos);
  source.file.sorts = readSorts(document.todoSorts, groupNames);
  source.file.savedFilters = readSavedFilters(document.filters);
  const unclaimed =
    unnamed +
    [...completionsOf].reduce((sum, [id, list]) => sum + (claimed.has(id) ? 0 : list.length), 0);
  if (unclaimed > 0) {
    source.skip(
      null,
      'completions',
      `${withThousands(unclaimed)} ${unclaimed === 1 ? 'completion names' : 'completions name'} no todo imported (its todoId is null, or no todo of the file has it): left out`,
    );
  }
  if (overImportLimit > 0) {
    source.skip(
      null,
      'completions',
      `An import takes at most ${withThousands(IMPORT_MAX_COMPLETIONS)} completions: ${withThousands(overImportLimit)} of the last todos left out`,
    );
  }
  return source.file;
}

/** Version 2's tags with their colours (a colour not among the 8 swatches is left out). */
function readTags(tags: unknown, source: SourceBuilder): void {
  if (!Array.isArray(tags)) return;
  const declared: SourceTag[] = [];
  tags.forEach((tag: unknown, index) => {
    if (!isObject(tag) || typeof tag.name !== 'string') return;
    const [name] = source.tags([tag.name], null, `tag ${index + 1}`);
    if (name === undefined) return;
    const color = (GROUP_COLORS as readonly unknown[]).includes(tag.color)
      ? (tag.color as string)
      : null;
    declared.push({ name, color, createdAt: instant(tag.createdAt) });
  });
  source.file.tags = declared;
}

/**
 * Version 2's sort per view; a group's view ("group-12") names the group by its id in the file,
 * so it is kept by the group's name and finds the group the import matches or creates.
 */
/** Version 3's saved filters: those with a name, a swatch colour and a query, as text. */
function readSavedFilters(filters: unknown): NonNullable<SourceFile['savedFilters']> {
  if (!Array.isArray(filters)) return [];
  return filters.flatMap((filter: unknown) =>
    isObject(filter) &&
    typeof filter.name === 'string' &&
    filter.name.trim() !== '' &&
    typeof filter.query === 'string' &&
    filter.query.trim() !== '' &&
    typeof filter.color === 'string' &&
    (GROUP_COLORS as readonly string[]).includes(filter.color)
      ? [
          {
            name: filter.name.trim().slice(0, LIMITS.groupNameMax),
            color: filter.color,
            query: filter.query.slice(0, FILTER_QUERY_MAX),
          },
        ]
      : [],
  );
}

function readSorts(sorts: unknown, groupNames: ReadonlyMap<unknown, string>): SourceSort[] {
  if (!isObject(sorts)) return [];
  return Object.entries(sorts).flatMap(([view, sort]): SourceSort[] => {
    if (!isSort(sort)) return [];
    const groupId = /^group-(\d+)$/.exec(view)?.[1];
    if (groupId === undefined) return SORT_VIEW.test(view) ? [{ view, sort }] : [];
    const group = groupNames.get(Number(groupId));
    return group === undefined ? [] : [{ view: { group }, sort }];
  });
}
