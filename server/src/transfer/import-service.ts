import { createHash } from 'node:crypto';
import {
  DEFAULT_GROUP_COLOR,
  GROUP_COLORS,
  IMPORT_PREVIEW_ROWS,
  IMPORT_REPORT_ROWS,
  type ImportFormat,
  SAVED_FILTERS_MAX,
  type ImportReport,
  SORT_VIEWS_MAX,
  type TodoSorts,
} from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { conflict } from '../shared/errors.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import { addTags } from '../shared/tags.js';
import { timeSlicer } from '../shared/time-slices.js';
import {
  recordCompletionsAt,
  recordEventsAt,
  type TimedCompletion,
  type TimedEvent,
} from '../statistics/record-events.js';
import { decodeText } from './decode.js';
import type { CheckPlanning, SourceContext, SourceFile, SourceTodo } from './sources/source.js';
import { readTallyCsv } from './sources/tally-csv.js';
import { readTallyJson } from './sources/tally-json.js';
import { readTickTickCsv } from './sources/ticktick-csv.js';
import { readTodoistCsv } from './sources/todoist-csv.js';
import { readGoogleTasks } from './sources/google-tasks.js';
import { readVikunja } from './sources/vikunja.js';
import { readIcs } from './sources/ics.js';
import { type CsvMapping, readAnyCsv } from './sources/any-csv.js';
import { readZipEntry } from './zip.js';
import { batches } from '../shared/batches.js';
import { searchText } from '../shared/search-text.js';
import { nextVersion } from '../shared/versions.js';
import { scheduleReminder } from '../reminders/schedule.js';
import { remindersColumn } from '../todos/rows.js';

const READERS: Record<ImportFormat, (text: string, context: SourceContext) => Promise<SourceFile>> =
  {
    'tally-json': readTallyJson,
    'tally-csv': readTallyCsv,
    'todoist-csv': readTodoistCsv,
    'ticktick-csv': readTickTickCsv,
    'google-tasks-json': readGoogleTasks,
    'vikunja-zip': readVikunja,
    ics: readIcs,
    csv: readAnyCsv,
  };

/**
 * The import key of a source row: a hash of the format and what names the row in its file (an
 * id, or the row's content), unique per user (migration 0008). The same row imported again finds
 * its todo and is left out, so importing a file twice creates nothing new.
 */
const keyOf = (format: ImportFormat, todo: SourceTodo) =>
  createHash('sha256').update(`${format}\u0000${todo.key}`).digest('base64url').slice(0, 32);

/** Hue (degrees) and saturation (0-1) of a hex colour; null when it is not one. */
function hueOf(hex: string): { hue: number; saturation: number } | null {
  let digits = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim())?.[1];
  if (!digits) return null;
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const value = Number.parseInt(digits, 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((c) => c / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  const lightness = (max + min) / 2;
  const saturation = chroma === 0 ? 0 : chroma / (1 - Math.abs(2 * lightness - 1));
  let hue = 0;
  if (chroma > 0) {
    if (max === r) hue = ((g - b) / chroma + 6) % 6;
    else if (max === g) hue = (b - r) / chroma + 2;
    else hue = (r - g) / chroma + 4;
  }
  return { hue: hue * 60, saturation };
}

/**
 * A source colour as one of the 8 swatches: the swatch itself (any case); else the swatch of the
 * nearest hue, since the swatches differ by hue (a dark navy is blue, not green); a grey, or
 * anything not a hex colour, is the default swatch (docs/decisions/051-import-and-export.md).
 */
export function nearestSwatch(color: string): string {
  const exact = GROUP_COLORS.find((swatch) => swatch.toLowerCase() === color.trim().toLowerCase());
  if (exact) return exact;
  const source = hueOf(color);
  if (!source || source.saturation < 0.15) return DEFAULT_GROUP_COLOR;
  let best: string = DEFAULT_GROUP_COLOR;
  let bestDistance = Infinity;
  for (const swatch of GROUP_COLORS) {
    const { hue } = hueOf(swatch) as { hue: number };
    const around = Math.abs(hue - source.hue);
    const distance = Math.min(around, 360 - around);
    if (distance < bestDistance) [best, bestDistance] = [swatch, distance];
  }
  return best;
}

interface PlannedGroup {
  name: string;
  color: string;
  /** The caller's group of that name, or null for one to create. */
  id: number | null;
  createdAt: number | null;
  todos: number;
}

export interface ImportRequest {
  bytes: Uint8Array;
  format: ImportFormat;
  dryRun: boolean;
  /** The caller's IANA zone: their today for relative dates, on-time for completions. */
  zone: string;
  /** The name the file was uploaded with, for the import history. */
  fileName?: string | null;
  /** Any CSV: the column each field comes from. */
  mapping?: CsvMapping;
}

export interface ImportServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  checkPlanning: CheckPlanning;
}

/**
 * POST /api/import (docs/product.md, Import and export): reads the file in its format, plans
 * against the caller's account (groups matched by name, rows imported before left out), and
 * either answers the plan (dry run) or carries it out, statistics included, in one short
 * transaction per batch of 500 todos (decision 096). On SQLite every other request waits for
 * the transaction that holds the one connection, so one transaction for a whole file held them
 * for a second; each batch is complete in itself (its todos, their parents, tags, statistics),
 * and a row is written once by its import key, so importing the file again after an
 * interruption adds exactly what is missing.
 */
export function createImportService({ db, clock, checkPlanning }: ImportServiceDeps) {
  async function run(userId: number, request: ImportRequest): Promise<ImportReport> {
    const now = clock();
    // Vikunja's export is a zip archive: its data.json is the file read.
    const bytes =
      request.format === 'vikunja-zip'
        ? await readZipEntry(request.bytes, 'data.json')
        : request.bytes;
    const { text, encoding } = decodeText(bytes);
    // The readers stop at the limit of todos (SourceBuilder.addTodo) and pause every 10 ms.
    const source = await READERS[request.format](text, {
      now,
      zone: request.zone,
      checkPlanning,
      ...(request.mapping ? { mapping: request.mapping } : {}),
    });
    const keyed = source.todos.map((todo) => ({ todo, key: keyOf(request.format, todo) }));
    const at = (instant: number | null) => Math.min(Math.max(instant ?? now, 0), now);

    const known = await knownRows(db, userId, request.format, keyed);
    const fresh = keyed.filter(({ todo, key }) => known.idOf(todo, key) === undefined);
    const groups = await planGroups(
      db,
      userId,
      source,
      fresh.map(({ todo }) => todo),
    );
    const groupOf = (todo: SourceTodo) =>
      todo.group === null ? null : (groups.get(todo.group.toLowerCase()) ?? null);

    const report: ImportReport = {
      format: request.format,
      dryRun: request.dryRun,
      encoding,
      groups: [...groups.values()].map((group) => ({
        name: group.name,
        color: group.color,
        existing: group.id !== null,
        todos: group.todos,
      })),
      todos: {
        created: fresh.length,
        completed: fresh.filter(({ todo }) => todo.completed).length,
        withDueDate: fresh.filter(({ todo }) => todo.dueDate !== null).length,
        repeating: fresh.filter(({ todo }) => todo.repeat !== null).length,
        alreadyImported: keyed.length - fresh.length,
      },
      preview: fresh.slice(0, IMPORT_PREVIEW_ROWS).map(({ todo }) => ({
        line: todo.line,
        where: todo.where,
        title: todo.title,
        group: groupOf(todo)?.name ?? null,
        completed: todo.completed,
        dueDate: todo.dueDate,
        dueTime: todo.dueTime,
        repeat: todo.repeat,
      })),
      skipped: source.skipped.slice(0, IMPORT_REPORT_ROWS),
      skippedCount: source.skipped.length,
      warnings: source.warnings.slice(0, IMPORT_REPORT_ROWS),
      warningCount: source.warnings.length,
      ...(source.columns ? { columns: source.columns } : {}),
      importId: null,
    };
    if (request.dryRun) return report;
    const newGroups = [...groups.values()].filter((group) => group.id === null).length;
    if (fresh.length === 0 && newGroups === 0) return report;

    /** The id of each row of the file, written now or by an earlier import, for subtasks. */
    const idOfTodo = new Map<SourceTodo, number>();
    for (const { todo, key } of keyed) {
      const id = known.idOf(todo, key);
      if (id !== undefined) idOfTodo.set(todo, id);
    }
    let written = 0;
    const partly = () =>
      conflict(
        written === 0
          ? 'Another import or change got there first; nothing was imported - try again'
          : `Another import or change got there first after ${written} of ${fresh.length} todos were imported; import the same file again to add the rest`,
      );
    let importId: number | null = null;
    try {
      await db.transaction().execute(async (trx) => {
        importId = (
          await trx
            .insertInto('imports')
            .values({
              user_id: userId,
              format: request.format,
              file_name: request.fileName?.slice(0, 255) ?? null,
              created_at: now,
              todos: fresh.length,
              groups: newGroups,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        report.importId = importId;
        const made = await createGroups(trx, userId, groups, at);
        if (made.length > 0) {
          await trx
            .insertInto('import_groups')
            .values(made.map((groupId) => ({ import_id: importId as number, group_id: groupId })))
            .execute();
        }
        await declareTags(trx, userId, source, at);
        await keepSorts(trx, userId, source, (name) => groups.get(name.toLowerCase())?.id);
        await keepSavedFilters(trx, userId, source, now);
      });
      /** Subtasks written before their parent (a file may name a later row), by that parent. */
      const waiting = new Map<SourceTodo, SourceTodo[]>();
      const pause = timeSlicer();
      // In the file's order, which is also the order of the ids (newest first among equals).
      for (const batch of batches(fresh)) {
        await pause();
        await db.transaction().execute(async (trx) => {
          const events: TimedEvent[] = [];
          const completions: TimedCompletion[] = [];
          const values = batch.map(({ todo, key }) => {
            const created = at(todo.createdAt);
            return {
              user_id: userId,
              group_id: groupOf(todo)?.id ?? null,
              title: todo.title,
              description: todo.description,
              completed: todo.completed ? 1 : 0,
              created_at: created,
              updated_at: Math.max(created, at(todo.updatedAt ?? created)),
              due_date: todo.dueDate,
              due_time: todo.dueTime,
              repeat: todo.repeat === null ? null : JSON.stringify(todo.repeat),
              import_key: key,
              search_text: searchText(todo.title, todo.description, todo.tags),
              // The file's manual order (Tally's export), else newest first, as a todo made
              // here starts (migration 0016).
              position: todo.position ?? -created,
              priority: todo.priority ?? 0,
              start_date: todo.startDate ?? null,
              duration_minutes: todo.durationMinutes ?? null,
              reminder_minutes: remindersColumn(todo.reminders ?? []),
            };
          });
          const rows = await trx
            .insertInto('todos')
            .values(values)
            .returning(['id', 'import_key'])
            .execute();
          const idOf = new Map(rows.map((row) => [row.import_key, row.id]));
          for (const [i, { todo, key }] of batch.entries()) {
            const todoId = idOf.get(key);
            const value = values[i];
            if (todoId === undefined || !value) throw new Error('an imported todo has no id');
            idOfTodo.set(todo, todoId);
            events.push({ type: 'todosCreated', at: value.created_at });
            // Reminders of Tally's export are armed as a client's create arms them.
            if (todo.reminders && todo.reminders.length > 0) {
              const reminding = {
                id: todoId,
                userId,
                completed: todo.completed,
                dueDate: todo.dueDate,
                dueTime: todo.dueTime,
                reminders: todo.reminders,
              };
              await scheduleReminder(trx, reminding, request.zone, now);
            }
            // A completed todo whose source has no completion time counts as completed now.
            const done =
              todo.completed && todo.completions.length === 0
                ? [{ at: now, dueDate: todo.dueDate }]
                : todo.completions;
            for (const completion of done) {
              events.push({ type: 'todosCompleted', at: at(completion.at) });
              completions.push({
                todoId,
                groupId: value.group_id,
                createdAt: value.created_at,
                dueDate: completion.dueDate,
                dueTime: completion.dueDate === todo.dueDate ? todo.dueTime : null,
                at: at(completion.at),
                ...(completion.onTime === undefined ? {} : { onTime: completion.onTime }),
              });
            }
          }
          await linkDetails(trx, userId, batch, idOfTodo, waiting, now);
          await recordImported(trx, importId as number, [...idOf.values()]);
          await recordEventsAt(trx, userId, events);
          await recordCompletionsAt(trx, userId, completions, request.zone);
        });
        written += batch.length;
      }
    } catch (error) {
      // Two imports at once of the same rows, or a group made meanwhile: the batch that met it
      // wrote nothing, and those before it are found by their import keys next time.
      if (importId !== null) {
        await db
          .updateTable('imports')
          .set({ todos: written })
          .where('id', '=', importId)
          .execute();
      }
      if (isUniqueViolation(error)) throw partly();
      throw error;
    }
    return report;
  }

  return { run };
}

/**
 * The todos an import just wrote, in the history with the version each has now (tags added
 * give a todo a new version): a todo at another version when the import is undone was edited.
 */
async function recordImported(trx: Db, importId: number, ids: number[]) {
  if (ids.length === 0) return;
  const rows = await trx
    .selectFrom('todos')
    .select(['id', 'version'])
    .where('id', 'in', ids)
    .execute();
  await trx
    .insertInto('import_todos')
    .values(rows.map((row) => ({ import_id: importId, todo_id: row.id, version: row.version })))
    .execute();
}

/** The planned groups that are new, created with their statistics; each gets its id. */
async function createGroups(
  trx: Db,
  userId: number,
  groups: Map<string, PlannedGroup>,
  at: (instant: number | null) => number,
): Promise<number[]> {
  const made: number[] = [];
  const events: TimedEvent[] = [];
  for (const group of groups.values()) {
    if (group.id !== null) continue;
    const row = await trx
      .insertInto('todo_groups')
      .values({
        user_id: userId,
        name: group.name,
        name_lower: group.name.toLowerCase(),
        color: group.color,
        created_at: at(group.createdAt),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    group.id = row.id;
    made.push(row.id);
    events.push({ type: 'groupsCreated', at: at(group.createdAt) });
  }
  await recordEventsAt(trx, userId, events);
  return made;
}

/**
 * The links of the rows just written, in their batch's transaction: each subtask under its
 * parent (written by this import, or by an earlier one of the same file), a subtask whose parent
 * comes later in the file once its parent is written (a parent never written leaves it at the
 * top level), and the tags, one statement per tag rather than per todo.
 */
async function linkDetails(
  trx: Db,
  userId: number,
  written: readonly { todo: SourceTodo }[],
  idOfTodo: ReadonlyMap<SourceTodo, number>,
  waiting: Map<SourceTodo, SourceTodo[]>,
  now: number,
) {
  const links: { id: number; parentId: number }[] = [];
  for (const { todo } of written) {
    const id = idOfTodo.get(todo);
    if (id === undefined) continue;
    if (todo.parent) {
      const parentId = idOfTodo.get(todo.parent);
      if (parentId !== undefined) links.push({ id, parentId });
      else {
        const children = waiting.get(todo.parent);
        if (children) children.push(todo);
        else waiting.set(todo.parent, [todo]);
      }
    }
    for (const child of waiting.get(todo) ?? []) {
      const childId = idOfTodo.get(child);
      if (childId !== undefined) links.push({ id: childId, parentId: id });
    }
    waiting.delete(todo);
  }
  for (const { id, parentId } of links) {
    // A new version: a subtask written by an earlier batch could be read (and its version
    // kept by a client) before this one linked it.
    await trx
      .updateTable('todos')
      .set({ parent_id: parentId, version: nextVersion })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .execute();
  }
  const byTag = new Map<string, { name: string; ids: number[] }>();
  for (const { todo } of written) {
    const id = idOfTodo.get(todo);
    if (id === undefined) continue;
    for (const name of todo.tags ?? []) {
      const entry = byTag.get(name.toLowerCase()) ?? { name, ids: [] };
      entry.ids.push(id);
      byTag.set(name.toLowerCase(), entry);
    }
  }
  for (const { name, ids } of byTag.values()) await addTags(trx, userId, ids, [name], now);
}

/**
 * The tags Tally's export version 2 declares, in its order (so they list as they did), with
 * their creation time and colour; a tag the account has keeps its spelling, and its colour
 * unless it has none.
 */
async function declareTags(
  trx: Db,
  userId: number,
  source: SourceFile,
  at: (instant: number | null) => number,
) {
  if (!source.tags?.length) return;
  await trx
    .insertInto('tags')
    .values(
      source.tags.map((tag) => ({
        user_id: userId,
        name: tag.name,
        name_lower: tag.name.toLowerCase(),
        color: tag.color,
        created_at: at(tag.createdAt),
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'name_lower']).doNothing())
    .execute();
  for (const tag of source.tags) {
    if (tag.color === null) continue;
    await trx
      .updateTable('tags')
      .set({ color: tag.color })
      .where('user_id', '=', userId)
      .where('name_lower', '=', tag.name.toLowerCase())
      .where('color', 'is', null)
      .execute();
  }
}

/**
 * The sort Tally's export version 2 kept per view, for the views the account has not chosen
 * one for; a group's view finds its group by name.
 */
async function keepSorts(
  trx: Db,
  userId: number,
  source: SourceFile,
  groupId: (name: string) => number | null | undefined,
) {
  if (!source.sorts?.length) return;
  const row = await trx
    .selectFrom('users')
    .select('todo_sorts')
    .where('id', '=', userId)
    .executeTakeFirst();
  const sorts = row?.todo_sorts ? (JSON.parse(row.todo_sorts) as TodoSorts) : {};
  let changed = false;
  for (const { view, sort } of source.sorts) {
    const id = typeof view === 'string' ? null : groupId(view.group);
    const name = typeof view === 'string' ? view : id ? `group-${id}` : null;
    if (name === null || name in sorts || Object.keys(sorts).length >= SORT_VIEWS_MAX) continue;
    sorts[name] = sort;
    changed = true;
  }
  if (changed) {
    await trx
      .updateTable('users')
      .set({ todo_sorts: JSON.stringify(sorts) })
      .where('id', '=', userId)
      .execute();
  }
}

/**
 * The saved filters of Tally's export version 3 whose name the account has not used yet (a file
 * imported again adds none), after the account's own, within the most a user may keep. A query
 * is kept as written: the filter's page says so if it names a group the account lacks.
 */
async function keepSavedFilters(trx: Db, userId: number, source: SourceFile, now: number) {
  if (!source.savedFilters?.length) return;
  const own = await trx
    .selectFrom('saved_filters')
    .select(['name', 'position'])
    .where('user_id', '=', userId)
    .execute();
  const names = new Set(own.map((filter) => filter.name.toLowerCase()));
  let position = Math.max(-1, ...own.map((filter) => filter.position)) + 1;
  const rows = [];
  for (const filter of source.savedFilters) {
    if (names.has(filter.name.toLowerCase())) continue;
    if (own.length + rows.length >= SAVED_FILTERS_MAX) break;
    names.add(filter.name.toLowerCase());
    rows.push({ user_id: userId, ...filter, position, created_at: now });
    position += 1;
  }
  if (rows.length > 0) await trx.insertInto('saved_filters').values(rows).execute();
}

/**
 * Which of the file's rows the account has already, and their ids: by import key, and for a
 * Tally file also a todo of the same title made at the same instant (the file's own account
 * importing it back).
 */
async function knownRows(
  db: Db,
  userId: number,
  format: ImportFormat,
  keyed: { todo: SourceTodo; key: string }[],
): Promise<{ idOf: (todo: SourceTodo, key: string) => number | undefined }> {
  const keys = new Map<string, number>();
  for (const batch of batches(keyed.map(({ key }) => key))) {
    const rows = await db
      .selectFrom('todos')
      .select(['id', 'import_key'])
      .where('user_id', '=', userId)
      .where('import_key', 'in', batch)
      .execute();
    for (const row of rows) if (row.import_key !== null) keys.set(row.import_key, row.id);
  }
  const natives = new Map<string, number>();
  if (format === 'tally-json' || format === 'tally-csv') {
    const instants = [
      ...new Set(keyed.map(({ todo }) => todo.createdAt).filter((t): t is number => t !== null)),
    ];
    for (const batch of batches(instants)) {
      const rows = await db
        .selectFrom('todos')
        .select(['id', 'title', 'created_at'])
        .where('user_id', '=', userId)
        .where('created_at', 'in', batch)
        .execute();
      for (const row of rows) natives.set(`${Number(row.created_at)}\n${row.title}`, row.id);
    }
  }
  return {
    idOf: (todo, key) =>
      keys.get(key) ??
      (todo.createdAt === null ? undefined : natives.get(`${todo.createdAt}\n${todo.title}`)),
  };
}

/**
 * The groups the import uses, by lower-case name, in order of first mention: the file's own
 * (declared) groups, then those its todos name. Each is the caller's group of that name, or one
 * to create, coloured from the file (the nearest swatch) or, without a colour, the swatches in
 * turn.
 */
async function planGroups(
  db: Db,
  userId: number,
  source: SourceFile,
  todos: SourceTodo[],
): Promise<Map<string, PlannedGroup>> {
  const existing = new Map(
    (
      await db
        .selectFrom('todo_groups')
        .select(['id', 'name', 'name_lower', 'color'])
        .where('user_id', '=', userId)
        .execute()
    ).map((row) => [row.name_lower, row]),
  );
  const planned = new Map<string, PlannedGroup>();
  let uncoloured = 0;
  const plan = (name: string, color: string | null, createdAt: number | null) => {
    const lower = name.toLowerCase();
    if (planned.has(lower)) return;
    const mine = existing.get(lower);
    planned.set(
      lower,
      mine
        ? { name: mine.name, color: mine.color, id: mine.id, createdAt: null, todos: 0 }
        : {
            name,
            color:
              color === null
                ? (GROUP_COLORS[uncoloured++ % GROUP_COLORS.length] ?? DEFAULT_GROUP_COLOR)
                : nearestSwatch(color),
            id: null,
            createdAt,
            todos: 0,
          },
    );
  };
  for (const group of source.groups) plan(group.name, group.color, group.createdAt);
  for (const todo of todos) {
    if (todo.group === null) continue;
    plan(todo.group, null, null);
    const group = planned.get(todo.group.toLowerCase());
    if (group) group.todos += 1;
  }
  return planned;
}
