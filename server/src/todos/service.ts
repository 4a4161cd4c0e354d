import {
  TODO_PAGE_DEFAULT,
  type CreateTodoBody,
  type Repeat,
  type Todo,
  type TodoCounts,
  type TodoListQuery,
  type TodoSort,
  type TodoSorts,
  SORT_VIEWS_MAX,
  type MoveTodoBody,
  type SetTodoSortBody,
  type PatchTodoBody,
  type UpdateTodoBody,
} from '@tally/contract';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, Db, TodoRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { addDays, parseDate } from '@tally/contract/dates';
import { cleanDescription, cleanTitle } from '@tally/contract/todo-text';
import { sortBy } from '@tally/contract/todo-shape';
import { dateInZone, daysBetween, localDateTime } from '../shared/calendar.js';
import { batches } from '../shared/batches.js';
import { badRequest } from '../shared/errors.js';
import { changedMeanwhile, ifMatchAllows, nextVersion } from '../shared/versions.js';
import { mergeReminders, scheduleReminder } from '../reminders/schedule.js';
import { searchText } from '../shared/search-text.js';
import { tagsOfTodos } from '../shared/tags.js';
import {
  recordCompletion,
  recordEvents,
  withdrawCompletions,
} from '../statistics/record-events.js';
import { nextOccurrenceBefore10000 } from '@tally/contract/repeats';
import { mergePlanning, type Planning } from './planning.js';
import { filterListCondition } from '../shared/filter-sql.js';
import { searchTodos } from './search.js';
import {
  countsOfUser,
  dueBetween,
  dueTodayOrBefore,
  firstPageOfUser,
  forWrite,
  groupOfUser,
  insertTodo,
  newestFirst,
  olderThan,
  openInView,
  pageOfUserAfter,
  todoOfUser,
  todoToWrite,
  updateTodo,
  todosAndTagsOfUser,
  type ViewBounds,
} from './queries.js';
import {
  COLUMNS,
  orderKeysOf,
  remindersColumn,
  type TodoColumns,
  type TodoFilters,
} from './rows.js';
import { checkParent, descendantsOf } from './subtasks.js';
import { answer, answerWith, setTags } from './tag-links.js';
import { moveToTrash } from './trash.js';

const filtered = (filters: TodoFilters) =>
  filters.tag !== undefined || filters.priority !== undefined || filters.filter !== undefined;

/** Applies the filters to a select of todos. */
function applyFilters<O>(
  select: SelectQueryBuilder<Database, 'todos', O>,
  userId: number,
  filters: TodoFilters,
): SelectQueryBuilder<Database, 'todos', O> {
  let query = select;
  if (filters.priority !== undefined) {
    query = query.where('todos.priority', '=', filters.priority);
  }
  if (filters.tag !== undefined) {
    const lower = filters.tag.toLowerCase();
    query = query.where('todos.id', 'in', (eb) =>
      eb
        .selectFrom('todo_tags')
        .innerJoin('tags', 'tags.id', 'todo_tags.tag_id')
        .select('todo_tags.todo_id')
        .where('tags.user_id', '=', userId)
        .where('tags.name_lower', '=', lower),
    );
  }
  const { filter } = filters;
  if (filter !== undefined) query = query.where((eb) => filterListCondition(eb, filter));
  return query;
}

/**
 * The orders of ?sort= (the contract's, which the web app sorts by too), compared in JavaScript
 * so both databases answer the same order (their collations differ).
 */
const sortRows = <R extends TodoColumns>(rows: R[], sort: TodoSort): R[] =>
  sortBy(rows, orderKeysOf, sort);

/** A start date must be a real day of the calendar, as a due date must. */
function checkStartDate(startDate: string | null | undefined) {
  if (startDate && !parseDate(startDate)) {
    throw badRequest('startDate must be a real calendar date (YYYY-MM-DD)');
  }
}

export const planningOf = (row: Pick<TodoRow, 'due_date' | 'due_time' | 'repeat'>): Planning => ({
  dueDate: row.due_date,
  dueTime: row.due_time,
  repeat: row.repeat === null ? null : (JSON.parse(row.repeat) as Repeat),
});

/** A planning as the columns that store it. */
export const planningColumns = (planning: Planning) => ({
  due_date: planning.dueDate,
  due_time: planning.dueTime,
  repeat: planning.repeat === null ? null : JSON.stringify(planning.repeat),
});

const reminderOf = (todo: Todo, userId: number) => ({ ...todo, userId });

/** How many days Upcoming shows, today included. */
const UPCOMING_DAYS = 7;

/**
 * What completing a repeating todo completes: the occurrence it is on (the web app's tick, the
 * API's, a reminder's action), after which it moves to its next date, still open; or the whole
 * series, which stays where it is, completed. The latter is a calendar app's STATUS:COMPLETED on
 * the VTODO that holds the RRULE: RFC 5545 gives that VTODO's properties to the whole recurrence
 * set, and a CalDAV server stores it as sent, as Radicale does
 * (docs/decisions/163-a-calendar-app-completes-a-series.md).
 */
type Completing = 'occurrence' | 'series';

/**
 * The planning of a repeating todo moved to its next occurrence; null when the rule has none
 * left before 10000 (then completing the todo completes it, docs/product.md, Planning).
 */
export function advance(planning: Planning, now: number, zone: string): Planning | null {
  const { repeat, dueDate } = planning;
  if (repeat === null || dueDate === null) return planning;
  const base = repeat.from === 'completion' ? dateInZone(now, zone) : dueDate;
  const next = nextOccurrenceBefore10000(repeat, base);
  return next === null ? null : { ...planning, dueDate: next };
}

/**
 * A start date moved by a repeat's advance as many days as the due date (from → to), so the todo
 * stays hidden as long before each occurrence as before the first; as it was when that would
 * pass 9999-12-31.
 */
export function movedStart(
  start: string | null,
  from: string | null,
  to: string | null,
): string | null {
  if (start === null || from === null || to === null) return start;
  const moved = addDays(start, daysBetween(from, to));
  return parseDate(moved) ? moved : start;
}

/**
 * Whether a cursor's id fits the id column (a 32-bit integer on PostgreSQL): a larger one would
 * make the query fail, and an id no row has is a cursor this server never gave out.
 */
const isRowId = (id: number) => id >= 1 && id <= 2_147_483_647;

const encodeDueCursor = (row: Pick<TodoRow, 'due_date' | 'due_time' | 'id'>) =>
  Buffer.from(`${row.due_date}|${row.due_time ?? ''}|${row.id}`).toString('base64url');

function decodeDueCursor(cursor: string): { dueDate: string; dueTime: string; id: number } | null {
  const match = /^(\d{4}-\d{2}-\d{2})\|((?:\d{2}:\d{2})?)\|(\d{1,10})$/.exec(
    Buffer.from(cursor, 'base64url').toString(),
  );
  if (!match || !isRowId(Number(match[3]))) return null;
  return { dueDate: match[1] as string, dueTime: match[2] as string, id: Number(match[3]) };
}

const encodeCursor = (created: number, id: number) =>
  Buffer.from(`${created}.${id}`).toString('base64url');

function decodeCursor(cursor: string): { created: number; id: number } | null {
  const match = /^(\d{1,15})\.(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match || !isRowId(Number(match[2]))) return null;
  return { created: Number(match[1]), id: Number(match[2]) };
}

type Sibling = { id: number; parent_id: number | null; position: number };

/** Siblings of a todo: the same parent (or the top level), in the manual order. */
const siblingsOf = (trx: Db, userId: number, parentId: number | null) =>
  trx
    .selectFrom('todos')
    .select(['id', 'parent_id', 'position'])
    .where('user_id', '=', userId)
    .where((eb) =>
      parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId),
    );

/**
 * The position just before (or after) `ref` among its siblings, leaving out the todo that moves.
 * Ties are broken as ?sort=manual breaks them (the newer id first).
 */
async function slotBeside(
  trx: Db,
  userId: number,
  ref: Sibling,
  before: boolean,
  movingId: number,
): Promise<number> {
  const refPosition = Number(ref.position);
  const neighbour = await siblingsOf(trx, userId, ref.parent_id)
    .where('id', '!=', movingId)
    .where((eb) =>
      before
        ? eb.or([
            eb('position', '<', refPosition),
            eb.and([eb('position', '=', refPosition), eb('id', '>', ref.id)]),
          ])
        : eb.or([
            eb('position', '>', refPosition),
            eb.and([eb('position', '=', refPosition), eb('id', '<', ref.id)]),
          ]),
    )
    .orderBy('position', before ? 'desc' : 'asc')
    .orderBy('id', before ? 'asc' : 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!neighbour) return before ? refPosition - 1024 : refPosition + 1024;
  const mid = (refPosition + Number(neighbour.position)) / 2;
  if (mid !== refPosition && mid !== Number(neighbour.position)) return mid;
  // No float fits between them: number the siblings 1024 apart in their order, then try again.
  const siblings = await siblingsOf(trx, userId, ref.parent_id)
    .orderBy('position')
    .orderBy('id', 'desc')
    .execute();
  for (const [index, sibling] of siblings.entries()) {
    await trx
      .updateTable('todos')
      .set({ position: index * 1024, version: nextVersion })
      .where('id', '=', sibling.id)
      .execute();
  }
  const renumbered = siblings.findIndex((sibling) => sibling.id === ref.id) * 1024;
  return slotBeside(trx, userId, { ...ref, position: renumbered }, before, movingId);
}

/** Reopens the done subtasks (at every level) of these todos: a repeating parent moved on. */
export async function reopenSubtasks(trx: Db, userId: number, ids: readonly number[], now: number) {
  const subtasks = await descendantsOf(trx, userId, ids);
  for (const batch of batches(subtasks)) {
    await trx
      .updateTable('todos')
      .set({ completed: 0, updated_at: now, version: nextVersion })
      .where('user_id', '=', userId)
      .where('completed', '=', 1)
      .where('id', 'in', batch)
      .execute();
  }
}

/**
 * Refuses a write to a todo at `version` that started from another one (If-Match): 412 with the
 * todo as it is now, before anything is written.
 */
async function checkVersion(
  trx: Db,
  userId: number,
  id: number,
  version: number,
  ifMatch: string | undefined,
) {
  if (ifMatchAllows(ifMatch, version)) return;
  const [row] = await todoOfUser(trx, { id, userId });
  const [todo] = row ? await answer(trx, [row]) : [];
  throw changedMeanwhile('todo', todo ?? { version });
}

/** A todo may only join one of its owner's groups; anything else is the same 400. */
export async function checkGroup(db: Db, userId: number, groupId: number | null) {
  if (groupId === null) return;
  const [group] = await groupOfUser(db, { id: groupId, userId });
  if (!group) throw badRequest('groupId must be the id of one of your groups');
}

export function createTodoService(db: Kysely<Database>, clock: Clock) {
  /**
   * Each write's transaction; when the service is made inside one (CalDAV's PUT, several steps
   * that stand or fall together), that one.
   */
  const transaction = <T>(work: (trx: Db) => Promise<T>): Promise<T> =>
    db.isTransaction ? work(db) : db.transaction().execute(work);

  return {
    /** The whole list: newest first unless `sort` says otherwise. */
    async list(userId: number, filters: TodoFilters = {}, sort: TodoSort = 'created') {
      if (filtered(filters)) {
        const rows = await applyFilters(newestFirst(db, userId), userId, filters).execute();
        return answer(db, sort === 'created' ? rows : sortRows(rows, sort));
      }
      const { rows, tags } = await todosAndTagsOfUser(db, userId);
      return answerWith(sort === 'created' ? rows : sortRows(rows, sort), tags);
    },

    /** One of the user's todos as it is now; null when not theirs or in the trash. */
    async get(userId: number, id: number): Promise<Todo | null> {
      const [row] = await todoOfUser(db, { id, userId });
      if (!row) return null;
      const [todo] = await answer(db, [row]);
      return todo ?? null;
    },

    /** How many todos the user has in all, ungrouped and in each group that holds any. */
    async counts(userId: number): Promise<TodoCounts> {
      const rows = await countsOfUser(db, { userId });
      const counts: TodoCounts = { all: 0, ungrouped: 0, groups: [] };
      for (const row of rows) {
        // PostgreSQL's count is a bigint, which node-postgres hands over as a string.
        const count = Number(row.count);
        counts.all += count;
        if (row.group_id === null) counts.ungrouped = count;
        else counts.groups.push({ groupId: row.group_id, count });
      }
      counts.groups.sort((a, b) => a.groupId - b.groupId);
      return counts;
    },

    /**
     * One page, newest first, after the cursor (the created time and id of the last todo of the
     * previous page). `next` is null on the last page.
     */
    async page(
      userId: number,
      limit: number,
      cursor: string | undefined,
      filters: TodoFilters = {},
    ): Promise<{ todos: Todo[]; next: string | null }> {
      // One more than the page, to know whether another follows.
      let rows: TodoColumns[];
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (after === null) throw badRequest('cursor is not a cursor this server gave out');
      if (filtered(filters)) {
        const select = applyFilters(newestFirst(db, userId), userId, filters);
        rows = await (after ? olderThan(select, after.created, after.id) : select)
          .limit(limit + 1)
          .execute();
      } else if (after === undefined) {
        rows = await firstPageOfUser(db, { userId, limit: limit + 1 });
      } else {
        rows = await pageOfUserAfter(db, { userId, limit: limit + 1, ...after });
      }
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        todos: await answer(db, rows.slice(0, limit)),
        next: last ? encodeCursor(last.created_at, last.id) : null,
      };
    },
    /**
     * Open todos by due date in the caller's zone, soonest first (then by time, a todo without
     * one first, then oldest): Today (due today or before), Upcoming (today and the next six
     * days) or Overdue (due before today, or today at a time already past). Paged like the list
     * when `limit` or `cursor` is given.
     */
    async view(
      userId: number,
      query: Required<Pick<TodoListQuery, 'view'>> & Pick<TodoListQuery, 'limit' | 'cursor'>,
      zone: string,
      filters: TodoFilters = {},
      sort?: TodoSort,
    ): Promise<{ todos: Todo[]; next: string | null }> {
      const now = clock();
      const today = dateInZone(now, zone);
      const paged = query.limit !== undefined || query.cursor !== undefined;
      const sorted = (rows: TodoColumns[]) => (sort === undefined ? rows : sortRows(rows, sort));
      if (!paged && !filtered(filters) && query.view === 'today') {
        const rows = sorted(await dueTodayOrBefore(db, { userId, today }));
        return { todos: await answer(db, rows), next: null };
      }
      if (!paged && !filtered(filters) && query.view === 'upcoming') {
        const to = addDays(today, UPCOMING_DAYS - 1);
        const rows = sorted(await dueBetween(db, { userId, today, to }));
        return { todos: await answer(db, rows), next: null };
      }
      const bounds: ViewBounds =
        query.view === 'today'
          ? { view: 'today', today }
          : query.view === 'upcoming'
            ? { view: 'upcoming', today, to: addDays(today, UPCOMING_DAYS - 1) }
            : { view: 'overdue', today, clockTime: localDateTime(now, zone).time };
      let select = applyFilters(openInView(db, userId, bounds), userId, filters);
      if (query.cursor !== undefined) {
        const after = decodeDueCursor(query.cursor);
        if (!after) throw badRequest('cursor is not a cursor this server gave out');
        select = select.where((eb) =>
          eb(
            eb.refTuple('due_date', eb.fn.coalesce('due_time', eb.val('')), 'id'),
            '>',
            eb.tuple(after.dueDate, after.dueTime, after.id),
          ),
        );
      }
      const limit = query.limit ?? TODO_PAGE_DEFAULT;
      const rows = await select.$if(paged, (q) => q.limit(limit + 1)).execute();
      const last = paged && rows.length > limit ? rows[limit - 1] : undefined;
      return {
        todos: await answer(db, paged ? rows.slice(0, limit) : sorted(rows)),
        next: last ? encodeDueCursor(last) : null,
      };
    },

    /** `zone` is the caller's: a reminder's due time is meant in it. */
    async create(userId: number, input: CreateTodoBody, zone: string): Promise<Todo> {
      const now = clock();
      const groupId = input.groupId ?? null;
      const planning = mergePlanning({ dueDate: null, dueTime: null, repeat: null }, input);
      const reminders = mergeReminders([], input, planning.dueTime);
      const title = cleanTitle(input.title);
      const description = cleanDescription(input.description);
      const parentId = input.parentId ?? null;
      checkStartDate(input.startDate);
      return transaction(async (trx) => {
        await checkGroup(trx, userId, groupId);
        await checkParent(trx, userId, null, parentId);
        const [row] = await insertTodo(trx, {
          user_id: userId,
          now,
          group_id: groupId,
          title,
          description,
          ...planningColumns(planning),
          reminder_minutes: remindersColumn(reminders),
          search_text: searchText(title, description, input.tags),
          priority: input.priority ?? 0,
          parent_id: parentId,
          start_date: input.startDate ?? null,
          duration_minutes: input.durationMinutes ?? null,
          // Newest first among its siblings until moved, as the list starts out.
          position: -now,
        });
        if (!row) throw new Error('insert returned no row');
        if (input.tags !== undefined) await setTags(trx, userId, row.id, input.tags, now);
        const [todo] = await answer(trx, [row]);
        if (!todo) throw new Error('insert returned no todo');
        if (reminders.length > 0) await scheduleReminder(trx, reminderOf(todo, userId), zone, now);
        await recordEvents(trx, userId, ['todosCreated'], now);
        return todo;
      });
    },

    /**
     * A full update (PUT), or a partial one (PATCH: the omitted fields keep their values).
     * Null when the todo does not exist or is not the caller's; 412 when `ifMatch` names another
     * version. Completing a repeating todo counts the completion and moves it to its next
     * occurrence, still open; `zone` gives the day of completion for a rule counted from it.
     * `completing` 'series' completes it where it is instead (a calendar app's, see Completing).
     */
    async update(
      userId: number,
      id: number,
      change: UpdateTodoBody | { patch: PatchTodoBody },
      zone: string,
      ifMatch?: string,
      completing: Completing = 'occurrence',
    ): Promise<Todo | null> {
      const now = clock();
      return transaction(async (trx) => {
        const [current] = await todoToWrite(trx, { id, userId });
        if (!current) return null;
        await checkVersion(trx, userId, id, current.version, ifMatch);
        // Read in the same transaction as the write, so a field this change omits keeps the
        // value of the latest write before it.
        const input: UpdateTodoBody =
          'patch' in change
            ? {
                title: current.title,
                description: current.description,
                groupId: current.group_id,
                completed: current.completed === 1,
                ...change.patch,
              }
            : change;
        const groupId = input.groupId ?? null;
        checkStartDate(input.startDate);
        const parentId = input.parentId === undefined ? current.parent_id : input.parentId;
        if (parentId !== current.parent_id) await checkParent(trx, userId, id, parentId);
        const merged = mergePlanning(planningOf(current), input);
        const completedNow = current.completed === 0 && input.completed;
        const advanced =
          completedNow && merged.repeat !== null && completing === 'occurrence'
            ? advance(merged, now, zone)
            : null;
        // A repeat moves the todo on and leaves it open, unless its dates have ended.
        const recurs = advanced !== null;
        const planning = advanced ?? merged;
        const reminders = mergeReminders(
          current.reminder_minutes === null
            ? []
            : (JSON.parse(current.reminder_minutes) as number[]),
          input,
          planning.dueTime,
        );
        await checkGroup(trx, userId, groupId);
        const title = cleanTitle(input.title);
        const description = cleanDescription(input.description);
        // Search finds a todo by its tags too: the new ones, or those it keeps.
        const tags = input.tags ?? (await tagsOfTodos(trx, [id])).get(id) ?? [];
        const [row] = await updateTodo(trx, {
          id,
          user_id: userId,
          completed: input.completed && !recurs ? 1 : 0,
          now,
          group_id: groupId,
          title,
          description,
          ...planningColumns(planning),
          reminder_minutes: remindersColumn(reminders),
          search_text: searchText(title, description, tags),
          priority: input.priority ?? current.priority,
          parent_id: parentId,
          start_date: movedStart(
            input.startDate === undefined ? current.start_date : input.startDate,
            merged.dueDate,
            planning.dueDate,
          ),
          duration_minutes:
            input.durationMinutes === undefined ? current.duration_minutes : input.durationMinutes,
          // A todo that changes parent comes first among its new siblings.
          position: parentId === current.parent_id ? current.position : -now,
        });
        if (!row) throw new Error('update returned no row');
        if (input.tags !== undefined) await setTags(trx, userId, id, input.tags, now);
        // A repeating parent done for this occurrence: its subtasks start over for the next.
        if (recurs) await reopenSubtasks(trx, userId, [id], now);
        const [todo] = await answer(trx, [row]);
        if (!todo) throw new Error('update returned no todo');
        const reminderChanged =
          row.completed !== current.completed ||
          row.due_date !== current.due_date ||
          row.due_time !== current.due_time ||
          row.reminder_minutes !== current.reminder_minutes;
        if (reminderChanged) await scheduleReminder(trx, reminderOf(todo, userId), zone, now);
        await recordEvents(
          trx,
          userId,
          completedNow ? ['todosUpdated', 'todosCompleted'] : ['todosUpdated'],
          now,
        );
        if (completedNow) {
          // The occurrence that was done: its due date before a repeat moved it on.
          const completion = {
            todoId: id,
            groupId,
            createdAt: current.created_at,
            dueDate: merged.dueDate,
            dueTime: merged.dueTime,
          };
          await recordCompletion(trx, userId, completion, now, zone);
        }
        // Reopened (an Undo of its completion, or later): it did not stay done.
        if (current.completed === 1 && row.completed === 0) {
          await withdrawCompletions(trx, userId, [id]);
        }
        return todo;
      });
    },

    /**
     * Moves a repeating todo to its next occurrence without counting a completion. Null when
     * the todo does not exist or is not the caller's.
     */
    async skip(userId: number, id: number, zone: string, ifMatch?: string): Promise<Todo | null> {
      const now = clock();
      return transaction(async (trx) => {
        const [current] = await todoToWrite(trx, { id, userId });
        if (!current) return null;
        await checkVersion(trx, userId, id, current.version, ifMatch);
        const planning = planningOf(current);
        if (planning.repeat === null) throw badRequest('Only a repeating todo can be skipped');
        const next = advance(planning, now, zone);
        if (next === null) {
          throw badRequest('This todo repeats no more: its next date would be after 9999-12-31');
        }
        const [row] = await trx
          .updateTable('todos')
          .set({
            ...planningColumns(next),
            start_date: movedStart(current.start_date, planning.dueDate, next.dueDate),
            updated_at: now,
            version: nextVersion,
          })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returning(COLUMNS)
          .execute();
        if (!row) throw new Error('update returned no row');
        const [todo] = await answer(trx, [row]);
        if (!todo) throw new Error('update returned no todo');
        await scheduleReminder(trx, reminderOf(todo, userId), zone, now);
        await recordEvents(trx, userId, ['todosUpdated'], now);
        return todo;
      });
    },

    /**
     * Moves the todo and its subtasks to the trash, each counted as deleted. Answers how many
     * went (0: the todo does not exist or is not the caller's).
     */
    async remove(userId: number, id: number, ifMatch?: string): Promise<number> {
      const now = clock();
      return transaction(async (trx) => {
        if (ifMatch !== undefined) {
          const found = await forWrite(
            trx,
            trx
              .selectFrom('todos')
              .select('version')
              .where('id', '=', id)
              .where('user_id', '=', userId),
          ).executeTakeFirst();
          if (!found) return 0;
          await checkVersion(trx, userId, id, found.version, ifMatch);
        }
        const moved = await moveToTrash(trx, userId, [id], now);
        if (moved.length > 0) {
          await recordEvents(
            trx,
            userId,
            moved.map(() => 'todosDeleted' as const),
            now,
          );
        }
        return moved.length;
      });
    },

    /**
     * Puts a todo just before or after a sibling in the manual order (POST /api/todos/{id}/move).
     * Null when either todo is not the caller's. One row is written: the midpoint of its new
     * neighbours; only when two floats leave no room between them are the siblings numbered anew.
     */
    async move(
      userId: number,
      id: number,
      body: MoveTodoBody,
      ifMatch?: string,
    ): Promise<Todo | null> {
      const field = body.beforeId !== undefined ? 'beforeId' : 'afterId';
      const refId = body.beforeId ?? body.afterId;
      const now = clock();
      return transaction(async (trx) => {
        const pair = await forWrite(
          trx,
          trx
            .selectFrom('todos')
            .select(['id', 'parent_id', 'position', 'version'])
            .where('user_id', '=', userId)
            .where('id', 'in', [id, refId ?? id]),
        ).execute();
        const todo = pair.find((row) => row.id === id);
        // Another user's todo is 404 whatever the body says, so nothing tells it exists.
        if (!todo) return null;
        if (refId === undefined || (body.beforeId !== undefined && body.afterId !== undefined)) {
          throw badRequest('beforeId or afterId: give exactly one of them');
        }
        if (refId === id) throw badRequest(`${field} cannot be the todo itself`);
        const ref = pair.find((row) => row.id === refId);
        if (!ref) return null;
        if (ref.parent_id !== todo.parent_id) {
          throw badRequest(`${field} must be a todo with the same parent`);
        }
        await checkVersion(trx, userId, id, todo.version, ifMatch);
        const position = await slotBeside(trx, userId, ref, field === 'beforeId', id);
        const [row] = await trx
          .updateTable('todos')
          .set({ position, updated_at: now, version: nextVersion })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returning(COLUMNS)
          .execute();
        if (!row) throw new Error('update returned no row');
        await recordEvents(trx, userId, ['todosUpdated'], now);
        const [moved] = await answer(trx, [row]);
        return moved ?? null;
      });
    },

    /** The sort the user chose for each view ({} until they choose one). */
    async sorts(userId: number): Promise<TodoSorts> {
      const row = await db
        .selectFrom('users')
        .select('todo_sorts')
        .where('id', '=', userId)
        .executeTakeFirst();
      return row?.todo_sorts ? (JSON.parse(row.todo_sorts) as TodoSorts) : {};
    },

    async setSort(userId: number, { view, sort }: SetTodoSortBody): Promise<TodoSorts> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('users')
          .select('todo_sorts')
          .where('id', '=', userId)
          .executeTakeFirst();
        const sorts = row?.todo_sorts ? (JSON.parse(row.todo_sorts) as TodoSorts) : {};
        if (!(view in sorts) && Object.keys(sorts).length >= SORT_VIEWS_MAX) {
          throw badRequest(`view: at most ${SORT_VIEWS_MAX} views keep a sort`);
        }
        sorts[view] = sort;
        await trx
          .updateTable('users')
          .set({ todo_sorts: JSON.stringify(sorts) })
          .where('id', '=', userId)
          .execute();
        return sorts;
      });
    },

    /** Search (GET /api/todos?q=): best match first, paged when `limit` or `cursor` is given. */
    async search(
      userId: number,
      q: string,
      limit: number | undefined,
      cursor: string | undefined,
      filters: TodoFilters = {},
    ): Promise<{ todos: Todo[]; next: string | null }> {
      const paged = limit !== undefined || cursor !== undefined;
      const { rows, next } = await searchTodos(
        db,
        userId,
        q,
        paged ? { limit: limit ?? TODO_PAGE_DEFAULT, cursor } : null,
        filters,
      );
      return { todos: await answer(db, rows), next };
    },
  };
}
