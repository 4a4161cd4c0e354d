import type { Tag, UpdateTagBody } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import { refreshSearchText } from '../shared/tags.js';

/** The todos that carry a tag, whose search text names it. */
const todosOfTag = async (db: Db, tagId: number) =>
  (await db.selectFrom('todo_tags').select('todo_id').where('tag_id', '=', tagId).execute()).map(
    (row) => row.todo_id,
  );

/**
 * A user's tags (docs/product.md, Tags): listed with how many open todos carry each, renamed
 * (into another existing tag: merged), recoloured and deleted. Null: no such tag of the caller.
 */

const byLowerName = (db: Db, userId: number, name: string) =>
  db
    .selectFrom('tags')
    .select(['id', 'name', 'color'])
    .where('user_id', '=', userId)
    .where('name_lower', '=', name.toLowerCase());

async function tagOf(db: Db, userId: number, id: number): Promise<Tag> {
  const row = await db
    .selectFrom('tags')
    .leftJoin('todo_tags', 'todo_tags.tag_id', 'tags.id')
    .leftJoin('todos', (join) =>
      join.onRef('todos.id', '=', 'todo_tags.todo_id').on('todos.completed', '=', 0),
    )
    .select((eb) => [
      'tags.name',
      'tags.color',
      eb.fn.count<number | string>('todos.id').as('count'),
    ])
    .where('tags.user_id', '=', userId)
    .where('tags.id', '=', id)
    .groupBy(['tags.id', 'tags.name', 'tags.color'])
    .executeTakeFirstOrThrow();
  // PostgreSQL's count is a bigint, which node-postgres hands over as a string.
  return { name: row.name, color: row.color, count: Number(row.count) };
}

export function createTagService(db: Kysely<Database>) {
  return {
    /** A-Z, case ignored. */
    async list(userId: number): Promise<Tag[]> {
      const rows = await db
        .selectFrom('tags')
        .leftJoin('todo_tags', 'todo_tags.tag_id', 'tags.id')
        .leftJoin('todos', (join) =>
          join.onRef('todos.id', '=', 'todo_tags.todo_id').on('todos.completed', '=', 0),
        )
        .select((eb) => [
          'tags.name',
          'tags.name_lower',
          'tags.color',
          eb.fn.count<number | string>('todos.id').as('count'),
        ])
        .where('tags.user_id', '=', userId)
        .groupBy(['tags.id', 'tags.name', 'tags.name_lower', 'tags.color'])
        .execute();
      // Sorted here, not by either database's collation, so both answer the same order.
      return rows
        .sort((a, b) => (a.name_lower < b.name_lower ? -1 : a.name_lower > b.name_lower ? 1 : 0))
        .map((row) => ({ name: row.name, color: row.color, count: Number(row.count) }));
    },

    async update(userId: number, name: string, change: UpdateTagBody): Promise<Tag | null> {
      return db.transaction().execute(async (trx) => {
        const tag = await byLowerName(trx, userId, name).executeTakeFirst();
        if (!tag) return null;
        let id = tag.id;
        const target =
          change.name === undefined
            ? undefined
            : await byLowerName(trx, userId, change.name).executeTakeFirst();
        if (target && target.id !== tag.id) {
          // A merge: the todos of this tag carry the other one, which keeps its spelling.
          const links = await trx
            .selectFrom('todo_tags')
            .select('todo_id')
            .where('tag_id', '=', tag.id)
            .execute();
          if (links.length > 0) {
            await trx
              .insertInto('todo_tags')
              .values(links.map(({ todo_id }) => ({ todo_id, tag_id: target.id })))
              .onConflict((oc) => oc.columns(['todo_id', 'tag_id']).doNothing())
              .execute();
          }
          await trx.deleteFrom('tags').where('id', '=', tag.id).execute();
          id = target.id;
        } else if (change.name !== undefined) {
          await trx
            .updateTable('tags')
            .set({ name: change.name, name_lower: change.name.toLowerCase() })
            .where('id', '=', tag.id)
            .execute();
        }
        if (change.color !== undefined) {
          await trx.updateTable('tags').set({ color: change.color }).where('id', '=', id).execute();
        }
        if (change.name !== undefined)
          await refreshSearchText(trx, userId, await todosOfTag(trx, id));
        return tagOf(trx, userId, id);
      });
    },

    /** Removes the tag from every todo; false when the caller has no such tag. */
    async remove(userId: number, name: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const tag = await byLowerName(trx, userId, name).executeTakeFirst();
        if (!tag) return false;
        const todoIds = await todosOfTag(trx, tag.id);
        await trx.deleteFrom('tags').where('id', '=', tag.id).execute();
        await refreshSearchText(trx, userId, todoIds);
        return true;
      });
    },
  };
}
