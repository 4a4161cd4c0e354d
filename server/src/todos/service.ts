import type { CreateTodoBody, Todo, UpdateTodoBody } from '@tally/contract';
import type { Kysely, Transaction } from 'kysely';
import { compiledShape, precompile } from '../db/prepared.js';
import type { Database, TodoRow } from '../db/schema.js';
import { recordEvents } from '../shared/activity-log.js';
import type { Clock } from '../shared/clock.js';
import { badRequest } from '../shared/errors.js';

const COLUMNS = ['id', 'title', 'description', 'group_id', 'completed', 'created_at'] as const;

type TodoColumns = Pick<TodoRow, (typeof COLUMNS)[number]>;

export function toTodo(row: TodoColumns): Todo {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    groupId: row.group_id,
    completed: row.completed === 1,
    created: new Date(row.created_at).toISOString(),
  };
}

const cleanDescription = (value: string | null | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

const encodeCursor = (created: number, id: number) =>
  Buffer.from(`${created}.${id}`).toString('base64url');

function decodeCursor(cursor: string): { created: number; id: number } | null {
  const match = /^(\d{1,15})\.(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) return null;
  return { created: Number(match[1]), id: Number(match[2]) };
}

type Db = Kysely<Database> | Transaction<Database>;

// The statements of create and update, compiled once (docs/decisions/038-per-request-work.md).
const groupOfUser = compiledShape<[number, number], { id: number }>((db: Db, id, userId) =>
  db.selectFrom('todo_groups').select('id').where('id', '=', id).where('user_id', '=', userId),
);
const insertTodo = compiledShape<
  [number, number | null, string, string | null, number, number],
  TodoColumns
>((db: Db, userId, groupId, title, description, createdAt, updatedAt) =>
  db
    .insertInto('todos')
    .values({
      user_id: userId,
      group_id: groupId,
      title,
      description,
      completed: 0,
      created_at: createdAt,
      updated_at: updatedAt,
    })
    .returning(COLUMNS),
);
const completedOf = compiledShape<[number, number], { completed: number }>((db: Db, id, userId) =>
  db.selectFrom('todos').select('completed').where('id', '=', id).where('user_id', '=', userId),
);
const updateTodo = compiledShape<
  [string, string | null, number | null, number, number, number, number],
  TodoColumns
>((db: Db, title, description, groupId, completed, updatedAt, id, userId) =>
  db
    .updateTable('todos')
    .set({ title, description, group_id: groupId, completed, updated_at: updatedAt })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(COLUMNS),
);

export function createTodoService(db: Kysely<Database>, clock: Clock) {
  /** A todo may only join one of its owner's groups; anything else is the same 400. */
  async function checkGroup(trx: Transaction<Database>, userId: number, groupId: number | null) {
    if (groupId === null) return;
    const [group] = (await groupOfUser(trx, groupId, userId)).rows;
    if (!group) throw badRequest('groupId must be the id of one of your groups');
  }

  const listAll = precompile(
    db,
    db
      .selectFrom('todos')
      .select(COLUMNS)
      .where('user_id', '=', 0)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
  );
  return {
    async list(userId: number): Promise<Todo[]> {
      return (await listAll(userId)).map(toTodo);
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
      let query = db
        .selectFrom('todos')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1);
      if (cursor !== undefined) {
        const after = decodeCursor(cursor);
        if (!after) throw badRequest('cursor is not a cursor this server gave out');
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', after.created),
            eb.and([eb('created_at', '=', after.created), eb('id', '<', after.id)]),
          ]),
        );
      }
      const rows = await query.execute();
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        todos: rows.slice(0, limit).map(toTodo),
        next: last ? encodeCursor(last.created_at, last.id) : null,
      };
    },
    async create(userId: number, input: CreateTodoBody): Promise<Todo> {
      const now = clock();
      const groupId = input.groupId ?? null;
      return db.transaction().execute(async (trx) => {
        await checkGroup(trx, userId, groupId);
        const [row] = (
          await insertTodo(
            trx,
            userId,
            groupId,
            input.title.trim(),
            cleanDescription(input.description),
            now,
            now,
          )
        ).rows;
        if (!row) throw new Error('insert returned no row');
        await recordEvents(trx, userId, ['todosCreated'], now);
        return toTodo(row);
      });
    },

    /** Null when the todo does not exist or is not the caller's. */
    async update(userId: number, id: number, input: UpdateTodoBody): Promise<Todo | null> {
      const now = clock();
      const groupId = input.groupId ?? null;
      return db.transaction().execute(async (trx) => {
        const [current] = (await completedOf(trx, id, userId)).rows;
        if (!current) return null;
        await checkGroup(trx, userId, groupId);
        const [row] = (
          await updateTodo(
            trx,
            input.title.trim(),
            cleanDescription(input.description),
            groupId,
            input.completed ? 1 : 0,
            now,
            id,
            userId,
          )
        ).rows;
        if (!row) throw new Error('update returned no row');
        const completedNow = current.completed === 0 && input.completed;
        await recordEvents(
          trx,
          userId,
          completedNow ? ['todosUpdated', 'todosCompleted'] : ['todosUpdated'],
          now,
        );
        return toTodo(row);
      });
    },

    /** False when the todo does not exist or is not the caller's. */
    async remove(userId: number, id: number): Promise<boolean> {
      const now = clock();
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('todos')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await recordEvents(trx, userId, ['todosDeleted'], now);
        return true;
      });
    },
  };
}
