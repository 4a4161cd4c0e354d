import { preparedQuery, type Placeholders } from '../db/prepared.js';
import type { Db } from '../db/schema.js';
import { distinctTags, ensureTags, tagsByTodo, tagsOfTodos } from '../shared/tags.js';
import { toTodo, type TodoColumns } from './rows.js';

/**
 * Tags on todos (docs/decisions/083-tags-subtasks-and-order.md): a tag is the user's, found by
 * its lower-case name, so "Work" and "work" are one tag and the first spelling stays.
 */

// The whole list's tags in one read: the links of every tag the user has (docs/performance.md).
const linksOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db
    .selectFrom('tags')
    .innerJoin('todo_tags', 'todo_tags.tag_id', 'tags.id')
    .select(['todo_tags.todo_id', 'tags.name'])
    .where('tags.user_id', '=', p('userId')),
);

const NONE: readonly string[] = [];

/** Rows as the API answers them, with their tags read in one query (not one per todo). */
export async function answer(db: Db, rows: readonly TodoColumns[]) {
  if (rows.length === 0) return [];
  const tags = await tagsOfTodos(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toTodo(row, tags.get(row.id) ?? NONE));
}

/** Every todo of the user (the unpaged list): the tags of all of them in one query. */
export async function answerAll(db: Db, userId: number, rows: readonly TodoColumns[]) {
  if (rows.length === 0) return [];
  const tags = tagsByTodo(await linksOfUser(db, { userId }));
  return rows.map((row) => toTodo(row, tags.get(row.id) ?? NONE));
}

/** Replaces the tags of one todo (the caller's, checked before) with these names. */
export async function setTags(
  trx: Db,
  userId: number,
  todoId: number,
  names: readonly string[],
  now: number,
): Promise<void> {
  const ids = await ensureTags(trx, userId, distinctTags(names), now);
  await trx.deleteFrom('todo_tags').where('todo_id', '=', todoId).execute();
  if (ids.length > 0) {
    await trx
      .insertInto('todo_tags')
      .values(ids.map((tag_id) => ({ todo_id: todoId, tag_id })))
      .execute();
  }
}
