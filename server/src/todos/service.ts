import type { CreateTodoBody, Todo, UpdateTodoBody } from '@tally/contract';
import type { Kysely } from 'kysely';
import { preparedQuery, type Placeholders } from '../db/prepared.js';
import type { Database, Db, TodoRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { badRequest } from '../shared/errors.js';
import { recordEvents } from '../statistics/record-events.js';

const COLUMNS = ['id', 'title', 'description', 'group_id', 'completed', 'created_at'] as const;

type TodoColumns = Pick<TodoRow, (typeof COLUMNS)[number]>;

function toTodo(row: TodoColumns): Todo {
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

// The list and the statements of create and update (docs/decisions/042-prepared-queries.md).
const todosOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db
    .selectFrom('todos')
    .select(COLUMNS)
    .where('user_id', '=', p('userId'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc'),
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
      })
      .returning(COLUMNS),
);
const completedOfTodo = preparedQuery((db, p: Placeholders<{ id: number; userId: number }>) =>
  db
    .selectFrom('todos')
    .select('completed')
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
      })
      .where('id', '=', p('id'))
      .where('user_id', '=', p('userId'))
      .returning(COLUMNS),
);

/** A todo may only join one of its owner's groups; anything else is the same 400. */
async function checkGroup(db: Db, userId: number, groupId: number | null) {
  if (groupId === null) return;
  const [group] = await groupOfUser(db, { id: groupId, userId });
  if (!group) throw badRequest('groupId must be the id of one of your groups');
}

export function createTodoService(db: Kysely<Database>, clock: Clock) {
  return {
    async list(userId: number): Promise<Todo[]> {
      return (await todosOfUser(db, { userId })).map(toTodo);
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
        const [row] = await insertTodo(trx, {
          userId,
          groupId,
          title: input.title.trim(),
          description: cleanDescription(input.description),
          now,
        });
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
        const [current] = await completedOfTodo(trx, { id, userId });
        if (!current) return null;
        await checkGroup(trx, userId, groupId);
        const [row] = await updateTodo(trx, {
          id,
          userId,
          title: input.title.trim(),
          description: cleanDescription(input.description),
          groupId,
          completed: input.completed ? 1 : 0,
          now,
        });
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
