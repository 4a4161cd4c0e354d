import {
  TODO_PAGE_DEFAULT,
  type CreateTodoBody,
  type Repeat,
  type Todo,
  type TodoCounts,
  type TodoListQuery,
  type PatchTodoBody,
  type UpdateTodoBody,
} from '@tally/contract';
import type { Kysely } from 'kysely';
import { preparedQuery, type Placeholders } from '../db/prepared.js';
import type { Database, Db, TodoRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { addDays, dateInZone, localDateTime } from '../shared/calendar.js';
import { badRequest } from '../shared/errors.js';
import { mergeRemindMinutesBefore, scheduleReminder } from '../reminders/schedule.js';
import { searchText } from '../shared/search-text.js';
import { recordCompletion, recordEvents } from '../statistics/record-events.js';
import { mergePlanning, nextOccurrenceBefore10000, type Planning } from './planning.js';
import { searchTodos } from './search.js';
import { COLUMNS, type TodoColumns, toTodo } from './rows.js';
import { moveToTrash } from './trash.js';

export const planningOf = (row: Pick<TodoRow, 'due_date' | 'due_time' | 'repeat'>): Planning => ({
  dueDate: row.due_date,
  dueTime: row.due_time,
  repeat: row.repeat === null ? null : (JSON.parse(row.repeat) as Repeat),
});

export const planningColumns = (planning: Planning) => ({
  dueDate: planning.dueDate,
  dueTime: planning.dueTime,
  repeat: planning.repeat === null ? null : JSON.stringify(planning.repeat),
});

const reminderOf = (todo: Todo, userId: number) => ({ ...todo, userId });

/** How many days Upcoming shows, today included. */
const UPCOMING_DAYS = 7;

const cleanDescription = (value: string | null | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

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

const dueColumns = (planning: Planning) => {
  const { dueDate, dueTime, repeat } = planningColumns(planning);
  return { due_date: dueDate, due_time: dueTime, repeat };
};

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

/** A user's todos as the list answers them, newest first. */
const newestFirst = (db: Db, userId: number) =>
  db
    .selectFrom('todos')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');

// The list and the statements of create and update (docs/decisions/042-prepared-queries.md).
const todosOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  newestFirst(db, p('userId')),
);
// Today and Upcoming, unpaged, are what the web app's screens load (decision 049); the paged and
// Overdue variants are built per call below.
const dueTodayOrBefore = preparedQuery((db, p: Placeholders<{ userId: number; today: string }>) =>
  db
    .selectFrom('todos')
    .select(COLUMNS)
    .where('user_id', '=', p('userId'))
    .where('completed', '=', 0)
    .where('due_date', 'is not', null)
    .where('due_date', '<=', p('today'))
    .orderBy('due_date')
    .orderBy((eb) => eb.fn.coalesce('due_time', eb.val('')))
    .orderBy('id'),
);
const dueBetween = preparedQuery(
  (db, p: Placeholders<{ userId: number; from: string; to: string }>) =>
    db
      .selectFrom('todos')
      .select(COLUMNS)
      .where('user_id', '=', p('userId'))
      .where('completed', '=', 0)
      .where('due_date', 'is not', null)
      .where('due_date', '>=', p('from'))
      .where('due_date', '<=', p('to'))
      .orderBy('due_date')
      .orderBy((eb) => eb.fn.coalesce('due_time', eb.val('')))
      .orderBy('id'),
);
// The web app's /todos loads the first page and the counts on every visit and after every live
// change, so both are prepared too (issue 18).
const firstPage = preparedQuery((db, p: Placeholders<{ userId: number; limit: number }>) =>
  newestFirst(db, p('userId')).limit(p('limit')),
);
const pageAfter = preparedQuery(
  (db, p: Placeholders<{ userId: number; limit: number; created: number; id: number }>) =>
    newestFirst(db, p('userId'))
      .where((eb) =>
        eb.or([
          eb('created_at', '<', p('created')),
          eb.and([eb('created_at', '=', p('created')), eb('id', '<', p('id'))]),
        ]),
      )
      .limit(p('limit')),
);
const countsOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db
    .selectFrom('todos')
    .select((eb) => ['group_id', eb.fn.countAll<number | string>().as('count')])
    .where('user_id', '=', p('userId'))
    .groupBy('group_id'),
);
const groupOfUser = preparedQuery((db, p: Placeholders<{ id: number; userId: number }>) =>
  db
    .selectFrom('todo_groups')
    .select('id')
    .where('id', '=', p('id'))
    .where('user_id', '=', p('userId')),
);
const insertTodo = preparedQuery(
  (
    db,
    p: Placeholders<{
      userId: number;
      groupId: number | null;
      title: string;
      description: string | null;
      now: number;
      dueDate: string | null;
      dueTime: string | null;
      repeat: string | null;
      remindMinutesBefore: number | null;
      searchText: string;
    }>,
  ) =>
    db
      .insertInto('todos')
      .values({
        user_id: p('userId'),
        group_id: p('groupId'),
        title: p('title'),
        description: p('description'),
        completed: 0,
        created_at: p('now'),
        updated_at: p('now'),
        due_date: p('dueDate'),
        due_time: p('dueTime'),
        repeat: p('repeat'),
        remind_minutes_before: p('remindMinutesBefore'),
        search_text: p('searchText'),
      })
      .returning(COLUMNS),
);
const currentOfTodo = preparedQuery((db, p: Placeholders<{ id: number; userId: number }>) =>
  db
    .selectFrom('todos')
    .select([
      'title',
      'description',
      'group_id',
      'completed',
      'due_date',
      'due_time',
      'repeat',
      'created_at',
      'remind_minutes_before',
    ])
    .where('id', '=', p('id'))
    .where('user_id', '=', p('userId')),
);
const updateTodo = preparedQuery(
  (
    db,
    p: Placeholders<{
      id: number;
      userId: number;
      title: string;
      description: string | null;
      groupId: number | null;
      completed: number;
      now: number;
      dueDate: string | null;
      dueTime: string | null;
      repeat: string | null;
      remindMinutesBefore: number | null;
      searchText: string;
    }>,
  ) =>
    db
      .updateTable('todos')
      .set({
        title: p('title'),
        description: p('description'),
        group_id: p('groupId'),
        completed: p('completed'),
        updated_at: p('now'),
        due_date: p('dueDate'),
        due_time: p('dueTime'),
        repeat: p('repeat'),
        remind_minutes_before: p('remindMinutesBefore'),
        search_text: p('searchText'),
      })
      .where('id', '=', p('id'))
      .where('user_id', '=', p('userId'))
      .returning(COLUMNS),
);

/** A todo may only join one of its owner's groups; anything else is the same 400. */
export async function checkGroup(db: Db, userId: number, groupId: number | null) {
  if (groupId === null) return;
  const [group] = await groupOfUser(db, { id: groupId, userId });
  if (!group) throw badRequest('groupId must be the id of one of your groups');
}

export function createTodoService(db: Kysely<Database>, clock: Clock) {
  return {
    async list(userId: number): Promise<Todo[]> {
      return (await todosOfUser(db, { userId })).map(toTodo);
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
    ): Promise<{ todos: Todo[]; next: string | null }> {
      // One more than the page, to know whether another follows.
      let rows: TodoColumns[];
      if (cursor === undefined) {
        rows = await firstPage(db, { userId, limit: limit + 1 });
      } else {
        const after = decodeCursor(cursor);
        if (!after) throw badRequest('cursor is not a cursor this server gave out');
        rows = await pageAfter(db, { userId, limit: limit + 1, ...after });
      }
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        todos: rows.slice(0, limit).map(toTodo),
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
    ): Promise<{ todos: Todo[]; next: string | null }> {
      const now = clock();
      const today = dateInZone(now, zone);
      const paged = query.limit !== undefined || query.cursor !== undefined;
      if (!paged && query.view === 'today') {
        return { todos: (await dueTodayOrBefore(db, { userId, today })).map(toTodo), next: null };
      }
      if (!paged && query.view === 'upcoming') {
        const to = addDays(today, UPCOMING_DAYS - 1);
        return {
          todos: (await dueBetween(db, { userId, from: today, to })).map(toTodo),
          next: null,
        };
      }
      let select = db
        .selectFrom('todos')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('completed', '=', 0)
        .where('due_date', 'is not', null);
      if (query.view === 'today') select = select.where('due_date', '<=', today);
      if (query.view === 'upcoming') {
        select = select
          .where('due_date', '>=', today)
          .where('due_date', '<=', addDays(today, UPCOMING_DAYS - 1));
      }
      if (query.view === 'overdue') {
        const clockTime = localDateTime(now, zone).time;
        select = select.where((eb) =>
          eb.or([
            eb('due_date', '<', today),
            eb.and([eb('due_date', '=', today), eb('due_time', '<', clockTime)]),
          ]),
        );
      }
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
      const rows = await select
        .orderBy('due_date')
        .orderBy((eb) => eb.fn.coalesce('due_time', eb.val('')))
        .orderBy('id')
        .$if(paged, (q) => q.limit(limit + 1))
        .execute();
      const last = paged && rows.length > limit ? rows[limit - 1] : undefined;
      return {
        todos: (paged ? rows.slice(0, limit) : rows).map(toTodo),
        next: last ? encodeDueCursor(last) : null,
      };
    },

    /** `zone` is the caller's: a reminder's due time is meant in it. */
    async create(userId: number, input: CreateTodoBody, zone: string): Promise<Todo> {
      const now = clock();
      const groupId = input.groupId ?? null;
      const planning = mergePlanning({ dueDate: null, dueTime: null, repeat: null }, input);
      const remindMinutesBefore = mergeRemindMinutesBefore(
        null,
        input.remindMinutesBefore,
        planning.dueTime,
      );
      const title = input.title.trim();
      const description = cleanDescription(input.description);
      return db.transaction().execute(async (trx) => {
        await checkGroup(trx, userId, groupId);
        const [row] = await insertTodo(trx, {
          userId,
          groupId,
          title,
          description,
          now,
          ...planningColumns(planning),
          remindMinutesBefore,
          searchText: searchText(title, description),
        });
        if (!row) throw new Error('insert returned no row');
        const todo = toTodo(row);
        if (remindMinutesBefore !== null)
          await scheduleReminder(trx, reminderOf(todo, userId), zone, now);
        await recordEvents(trx, userId, ['todosCreated'], now);
        return todo;
      });
    },

    /**
     * Null when the todo does not exist or is not the caller's. Completing a repeating todo
     * counts the completion and moves it to its next occurrence, still open; `zone` gives the
     * day of completion for a rule counted from it.
     */
    /** A full update (PUT), or a partial one (PATCH: the omitted fields keep their values). */
    async update(
      userId: number,
      id: number,
      change: UpdateTodoBody | { patch: PatchTodoBody },
      zone: string,
    ): Promise<Todo | null> {
      const now = clock();
      return db.transaction().execute(async (trx) => {
        const [current] = await currentOfTodo(trx, { id, userId });
        if (!current) return null;
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
        const merged = mergePlanning(planningOf(current), input);
        const completedNow = current.completed === 0 && input.completed;
        const advanced = completedNow && merged.repeat !== null ? advance(merged, now, zone) : null;
        // A repeat moves the todo on and leaves it open, unless its dates have ended.
        const recurs = advanced !== null;
        const planning = advanced ?? merged;
        const remindMinutesBefore = mergeRemindMinutesBefore(
          current.remind_minutes_before,
          input.remindMinutesBefore,
          planning.dueTime,
        );
        await checkGroup(trx, userId, groupId);
        const title = input.title.trim();
        const description = cleanDescription(input.description);
        const [row] = await updateTodo(trx, {
          id,
          userId,
          title,
          description,
          groupId,
          completed: input.completed && !recurs ? 1 : 0,
          now,
          ...planningColumns(planning),
          remindMinutesBefore,
          searchText: searchText(title, description),
        });
        if (!row) throw new Error('update returned no row');
        const todo = toTodo(row);
        const reminderChanged =
          row.completed !== current.completed ||
          row.due_date !== current.due_date ||
          row.due_time !== current.due_time ||
          row.remind_minutes_before !== current.remind_minutes_before;
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
        return todo;
      });
    },

    /**
     * Moves a repeating todo to its next occurrence without counting a completion. Null when
     * the todo does not exist or is not the caller's.
     */
    async skip(userId: number, id: number, zone: string): Promise<Todo | null> {
      const now = clock();
      return db.transaction().execute(async (trx) => {
        const [current] = await currentOfTodo(trx, { id, userId });
        if (!current) return null;
        const planning = planningOf(current);
        if (planning.repeat === null) throw badRequest('Only a repeating todo can be skipped');
        const next = advance(planning, now, zone);
        if (next === null) {
          throw badRequest('This todo repeats no more: its next date would be after 9999-12-31');
        }
        const [row] = await trx
          .updateTable('todos')
          .set({ ...dueColumns(next), updated_at: now })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returning(COLUMNS)
          .execute();
        if (!row) throw new Error('update returned no row');
        const todo = toTodo(row);
        await scheduleReminder(trx, reminderOf(todo, userId), zone, now);
        await recordEvents(trx, userId, ['todosUpdated'], now);
        return todo;
      });
    },

    /**
     * Moves the todo to the trash, counted as deleted. False when the todo does not exist or is
     * not the caller's.
     */
    async remove(userId: number, id: number): Promise<boolean> {
      const now = clock();
      return db.transaction().execute(async (trx) => {
        const moved = await moveToTrash(trx, userId, [id], now);
        if (moved.length === 0) return false;
        await recordEvents(trx, userId, ['todosDeleted'], now);
        return true;
      });
    },

    /** Search (GET /api/todos?q=): best match first, paged when `limit` or `cursor` is given. */
    async search(
      userId: number,
      q: string,
      limit: number | undefined,
      cursor: string | undefined,
    ): Promise<{ todos: Todo[]; next: string | null }> {
      const paged = limit !== undefined || cursor !== undefined;
      const { rows, next } = await searchTodos(
        db,
        userId,
        q,
        paged ? { limit: limit ?? TODO_PAGE_DEFAULT, cursor } : null,
      );
      return { todos: rows.map(toTodo), next };
    },
  };
}
