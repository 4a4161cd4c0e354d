import { TRASH_DAYS, type Todo, type TrashedTodo } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database, Db, TodoRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { batches } from '../shared/batches.js';
import { scheduleReminders } from '../reminders/schedule.js';
import { withdrawEventsAt } from '../statistics/record-events.js';
import { toTodo } from './rows.js';
import { descendantsOf } from './subtasks.js';
import { setTags } from './tag-links.js';
import { isoTime } from '../shared/iso-time.js';
import { tagsOfTodos } from '../shared/tags.js';

/**
 * What trashed_todos.todo holds: the todos row without the keys kept beside it, and its tags
 * (by name, so a tag deleted meanwhile comes back with the todo). Rows trashed before migration
 * 0016 lack the later columns and the tags; those trashed before 0019, the version; before 0027,
 * the duration; before 0030, the reminders, which they hold as their one offset.
 */
type StoredTodo = Omit<
  TodoRow,
  | 'reminder_minutes'
  | 'id'
  | 'user_id'
  | 'priority'
  | 'parent_id'
  | 'start_date'
  | 'position'
  | 'version'
  | 'duration_minutes'
> &
  Partial<
    Pick<
      TodoRow,
      'priority' | 'parent_id' | 'start_date' | 'position' | 'version' | 'duration_minutes'
    >
  > & {
    tags?: string[];
    reminder_minutes?: string | null;
    remind_minutes_before?: number | null;
  };

/** A stored todo as a full row, the columns it lacks at their defaults. */
const rowOf = (
  id: number,
  userId: number,
  { remind_minutes_before: before, ...stored }: StoredTodo,
): TodoRow & { tags: string[] } => ({
  ...stored,
  reminder_minutes:
    stored.reminder_minutes ?? (before === null || before === undefined ? null : `[${before}]`),
  id,
  user_id: userId,
  priority: stored.priority ?? 0,
  parent_id: stored.parent_id ?? null,
  start_date: stored.start_date ?? null,
  duration_minutes: stored.duration_minutes ?? null,
  position: stored.position ?? -stored.created_at,
  version: stored.version ?? 1,
  tags: stored.tags ?? [],
});

const DAY_MS = 86_400_000;

/** Which of `ids` are rows of the user's in `table` (a restored todo's parent or group). */
async function existingIds(
  trx: Db,
  table: 'todos' | 'todo_groups',
  userId: number,
  ids: readonly number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const batch of batches(ids)) {
    const rows = await trx
      .selectFrom(table)
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', batch)
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/**
 * Moves the caller's todos among `ids` to the trash with their subtasks at every level (a todo
 * that is not theirs is left alone) and returns them as they were, with their tags. Runs inside
 * the caller's transaction.
 */
export async function moveToTrash(
  trx: Db,
  userId: number,
  ids: readonly number[],
  now: number,
): Promise<Todo[]> {
  const moved: Todo[] = [];
  const all = [...new Set(ids)];
  all.push(...(await descendantsOf(trx, userId, all)));
  for (const batch of batches(all)) {
    const rows = await trx
      .selectFrom('todos')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', batch)
      .execute();
    if (rows.length === 0) continue;
    const tags = await tagsOfTodos(
      trx,
      rows.map((row) => row.id),
    );
    await trx
      .insertInto('trashed_todos')
      .values(
        rows.map(({ id, user_id, ...todo }) => ({
          id,
          user_id,
          trashed_at: now,
          parent_id: todo.parent_id,
          todo: JSON.stringify({ ...todo, tags: tags.get(id) ?? [] }),
        })),
      )
      .execute();
    await trx
      .deleteFrom('todos')
      .where('user_id', '=', userId)
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    moved.push(...rows.map((row) => toTodo(row, tags.get(row.id) ?? [])));
  }
  return moved;
}

/** The caller's trashed todos among `ids`, as they went to the trash. */
export async function trashedTodos(trx: Db, userId: number, ids: readonly number[]) {
  const todos: Todo[] = [];
  for (const batch of batches(ids)) {
    const rows = await trx
      .selectFrom('trashed_todos')
      .select(['id', 'todo'])
      .where('user_id', '=', userId)
      .where('id', 'in', batch)
      .execute();
    for (const { id, todo } of rows) {
      const { tags, ...row } = rowOf(id, userId, JSON.parse(todo) as StoredTodo);
      todos.push(toTodo(row, tags));
    }
  }
  return todos;
}

/** The trashed subtasks (at every level) of these trashed todos. */
async function trashedDescendants(trx: Db, userId: number, ids: readonly number[]) {
  const seen = new Set(ids);
  const found: number[] = [];
  let frontier = [...ids];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const batch of batches(frontier)) {
      const rows = await trx
        .selectFrom('trashed_todos')
        .select('id')
        .where('user_id', '=', userId)
        .where('parent_id', 'in', batch)
        .execute();
      for (const { id } of rows) {
        if (!seen.has(id)) {
          seen.add(id);
          next.push(id);
        }
      }
    }
    found.push(...next);
    frontier = next;
  }
  return found;
}

/**
 * Puts the caller's trashed todos among `ids` back with their trashed subtasks, under their own
 * ids; with no group when theirs was deleted meanwhile, at the top level when their parent is
 * not back, and without their import key when a later import took it. Null (and nothing
 * restored) unless every id is in the caller's trash. Runs inside the caller's transaction.
 */
export async function restoreFromTrash(
  trx: Db,
  userId: number,
  ids: readonly number[],
  zone: string,
  now: number,
): Promise<Todo[] | null> {
  const unique = [...new Set(ids)];
  const trashed = [];
  for (const batch of batches(unique)) {
    trashed.push(
      ...(await trx
        .selectFrom('trashed_todos')
        .select(['id', 'todo', 'trashed_at'])
        .where('user_id', '=', userId)
        .where('id', 'in', batch)
        .execute()),
    );
  }
  if (trashed.length !== unique.length) return null;
  for (const batch of batches(await trashedDescendants(trx, userId, unique))) {
    trashed.push(
      ...(await trx
        .selectFrom('trashed_todos')
        .select(['id', 'todo', 'trashed_at'])
        .where('user_id', '=', userId)
        .where('id', 'in', batch)
        .execute()),
    );
  }
  // Back from the trash (an Undo of a delete, or later): the deletions are withdrawn.
  await withdrawEventsAt(
    trx,
    userId,
    trashed.map(({ trashed_at }) => ({ type: 'todosDeleted', at: Number(trashed_at) })),
  );
  const stored = trashed.map(({ id, todo }) => rowOf(id, userId, JSON.parse(todo) as StoredTodo));
  const restoring = new Set(stored.map((todo) => todo.id));
  const parentIds = [
    ...new Set(
      stored.flatMap((todo) =>
        todo.parent_id !== null && !restoring.has(todo.parent_id) ? [todo.parent_id] : [],
      ),
    ),
  ];
  const parents = await existingIds(trx, 'todos', userId, parentIds);
  const groupIds = [...new Set(stored.flatMap((todo) => todo.group_id ?? []))];
  const groups = await existingIds(trx, 'todo_groups', userId, groupIds);
  const importKeys = [...new Set(stored.flatMap((todo) => todo.import_key ?? []))];
  const takenKeys = new Set<string>();
  for (const batch of batches(importKeys)) {
    const rows = await trx
      .selectFrom('todos')
      .select('import_key')
      .where('user_id', '=', userId)
      .where('import_key', 'in', batch)
      .execute();
    for (const row of rows) if (row.import_key !== null) takenKeys.add(row.import_key);
  }

  const restored = stored.map(({ tags, ...todo }) => ({
    row: {
      ...todo,
      // Back from the trash is a write: an ETag read before the delete is stale.
      version: todo.version + 1,
      group_id: todo.group_id !== null && groups.has(todo.group_id) ? todo.group_id : null,
      parent_id:
        todo.parent_id !== null && (restoring.has(todo.parent_id) || parents.has(todo.parent_id))
          ? todo.parent_id
          : null,
      import_key:
        todo.import_key !== null && takenKeys.has(todo.import_key) ? null : todo.import_key,
    },
    tags,
  }));
  for (const batch of batches(restored)) {
    await trx
      .insertInto('todos')
      .values(batch.map(({ row }) => row))
      .execute();
    for (const { row, tags } of batch) {
      if (tags.length > 0) await setTags(trx, userId, row.id, tags, now);
    }
    await trx
      .deleteFrom('trashed_todos')
      .where('user_id', '=', userId)
      .where(
        'id',
        'in',
        batch.map(({ row }) => row.id),
      )
      .execute();
  }
  const todos = restored
    .sort((a, b) => b.row.created_at - a.row.created_at || b.row.id - a.row.id)
    .map(({ row, tags }) => toTodo(row, tags));
  // Trashing deleted its reminder (with the row); back, it is due again unless its time passed.
  await scheduleReminders(trx, userId, todos, zone, now);
  return todos;
}

export function createTrashService(db: Kysely<Database>, clock: Clock) {
  return {
    /** Most recently deleted first. */
    async list(userId: number): Promise<TrashedTodo[]> {
      const rows = await db
        .selectFrom('trashed_todos')
        .select(['id', 'trashed_at', 'todo'])
        .where('user_id', '=', userId)
        .orderBy('trashed_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(({ id, trashed_at, todo }) => {
        const { tags, ...row } = rowOf(id, userId, JSON.parse(todo) as StoredTodo);
        return { ...toTodo(row, tags), trashedAt: isoTime(trashed_at) };
      });
    },

    /** Null when the id is not in the caller's trash. */
    /** `zone` is the caller's: a restored reminder's due time is meant in it. */
    async restore(userId: number, id: number, zone: string): Promise<Todo | null> {
      return db.transaction().execute(async (trx) => {
        const restored = await restoreFromTrash(trx, userId, [id], zone, clock());
        return restored?.[0] ?? null;
      });
    },

    /** False when the id is not in the caller's trash. */
    async remove(userId: number, id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('trashed_todos')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async empty(userId: number): Promise<void> {
      await db.deleteFrom('trashed_todos').where('user_id', '=', userId).execute();
    },

    /** Deletes for good what was trashed 30 days ago or earlier; answers how many. */
    async purge(): Promise<number> {
      const result = await db
        .deleteFrom('trashed_todos')
        .where('trashed_at', '<=', clock() - TRASH_DAYS * DAY_MS)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
