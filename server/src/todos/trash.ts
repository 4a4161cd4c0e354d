import { TRASH_DAYS, type Todo, type TrashedTodo } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database, Db, TodoRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { isoTime } from '../shared/iso-time.js';
import { scheduleReminders } from '../reminders/schedule.js';
import { toTodo } from './rows.js';

/** What trashed_todos.todo holds: the todos row without the keys kept beside it. */
type StoredTodo = Omit<TodoRow, 'id' | 'user_id'>;

const DAY_MS = 86_400_000;

/**
 * Rows per statement: one bulk call names at most 1,000 todos, well under either database's
 * parameter limit even with a row's dozen columns per todo.
 */
const BATCH = 500;

function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

/**
 * Moves the caller's todos among `ids` to the trash (a todo that is not theirs is left alone)
 * and returns them as they were. Runs inside the caller's transaction.
 */
export async function moveToTrash(
  trx: Db,
  userId: number,
  ids: readonly number[],
  now: number,
): Promise<TodoRow[]> {
  const moved: TodoRow[] = [];
  for (const batch of batches(ids)) {
    const rows = await trx
      .selectFrom('todos')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', batch)
      .execute();
    if (rows.length === 0) continue;
    await trx
      .insertInto('trashed_todos')
      .values(
        rows.map(({ id, user_id, ...todo }) => ({
          id,
          user_id,
          trashed_at: now,
          todo: JSON.stringify(todo),
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
    moved.push(...rows);
  }
  return moved;
}

/**
 * Puts the caller's trashed todos among `ids` back, under their own ids; with no group when
 * theirs was deleted meanwhile, and without their import key when a later import took it.
 * Null (and nothing restored) unless every id is in the caller's trash. Runs inside the
 * caller's transaction.
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
        .select(['id', 'todo'])
        .where('user_id', '=', userId)
        .where('id', 'in', batch)
        .execute()),
    );
  }
  if (trashed.length !== unique.length) return null;
  const stored = trashed.map(({ id, todo }) => ({ id, ...(JSON.parse(todo) as StoredTodo) }));

  const groupIds = [...new Set(stored.flatMap((todo) => todo.group_id ?? []))];
  const groups = new Set<number>();
  for (const batch of batches(groupIds)) {
    const rows = await trx
      .selectFrom('todo_groups')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', batch)
      .execute();
    for (const row of rows) groups.add(row.id);
  }
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

  const restored: TodoRow[] = stored.map((todo) => ({
    ...todo,
    user_id: userId,
    group_id: todo.group_id !== null && groups.has(todo.group_id) ? todo.group_id : null,
    import_key: todo.import_key !== null && takenKeys.has(todo.import_key) ? null : todo.import_key,
  }));
  for (const batch of batches(restored)) {
    await trx.insertInto('todos').values(batch).execute();
    await trx
      .deleteFrom('trashed_todos')
      .where('user_id', '=', userId)
      .where(
        'id',
        'in',
        batch.map((todo) => todo.id),
      )
      .execute();
  }
  const todos = restored
    .sort((a, b) => b.created_at - a.created_at || b.id - a.id)
    .map((row) => toTodo(row));
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
      return rows.map(({ id, trashed_at, todo }) => ({
        ...toTodo({ id, ...(JSON.parse(todo) as StoredTodo) }),
        trashedAt: isoTime(trashed_at),
      }));
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
