import type { Db } from '../db/schema.js';
import { distinctTags, ensureTags } from '../shared/tags.js';
import { toTodo, type TodoColumns } from './rows.js';

/**
 * Tags on todos (docs/decisions/083-tags-subtasks-and-order.md): a tag is the user's, found by
 * its lower-case name, so "Work" and "work" are one tag and the first spelling stays.
 */

/** Ids per statement, well under either database's parameter limit. */
const BATCH = 500;

const byName = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

function group(links: readonly { todo_id: number; name: string }[]) {
  const tags = new Map<number, string[]>();
  for (const { todo_id, name } of links) {
    const list = tags.get(todo_id);
    if (list) list.push(name);
    else tags.set(todo_id, [name]);
  }
  for (const list of tags.values()) list.sort(byName);
  return tags;
}

/** The tags of the given todos (one query per 500), by todo id, A-Z. */
export async function tagsOf(db: Db, ids: readonly number[]): Promise<Map<number, string[]>> {
  const links = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    links.push(
      ...(await db
        .selectFrom('todo_tags')
        .innerJoin('tags', 'tags.id', 'todo_tags.tag_id')
        .select(['todo_tags.todo_id', 'tags.name'])
        .where('todo_tags.todo_id', 'in', ids.slice(i, i + BATCH))
        .execute()),
    );
  }
  return group(links);
}

const NONE: readonly string[] = [];

/** Rows as the API answers them, with their tags read in one query (not one per todo). */
export async function answer(db: Db, rows: readonly TodoColumns[]) {
  if (rows.length === 0) return [];
  const tags = await tagsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toTodo(row, tags.get(row.id) ?? NONE));
}

/** Rows read with their tags' names in one text (todos/queries.ts, tagNames), as answered. */
export function answerWithTagNames(rows: readonly (TodoColumns & { tag_names: string | null })[]) {
  return rows.map((row) =>
    toTodo(row, row.tag_names === null ? NONE : row.tag_names.split(' ').sort(byName)),
  );
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
