import type { Db } from '../db/schema.js';
import { distinctTags, ensureTags, tagsOfTodos } from '../shared/tags.js';
import { toTodo, type TodoColumns } from './rows.js';

/**
 * Tags on todos (docs/decisions/083-tags-subtasks-and-order.md): a tag is the user's, found by
 * its lower-case name, so "Work" and "work" are one tag and the first spelling stays.
 */

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

/** Rows as the API answers them, with tags read beside them. */
export const answerWith = (rows: readonly TodoColumns[], tags: ReadonlyMap<number, string[]>) =>
  rows.map((row) => toTodo(row, tags.get(row.id) ?? NONE));

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
