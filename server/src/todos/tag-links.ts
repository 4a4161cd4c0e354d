import { dialectOf } from '../db/dialect-of.js';
import type { Db } from '../db/schema.js';
import { distinctTags, ensureTags } from '../shared/tags.js';
import { tagLinksOfUser, todosOfUser, todosWithTagNamesOfUser } from './queries.js';
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

/**
 * Every todo of the user, newest first, and the tags of each by todo id (the list without
 * parameters, docs/decisions/091-data-access-modules.md). PostgreSQL answers both in one query,
 * saving the driver a round trip and a result; on SQLite a query is a call in this process,
 * where two plain reads cost less than the grouped join.
 */
export async function todosAndTagsOfUser(
  db: Db,
  userId: number,
): Promise<{ rows: TodoColumns[]; tags: Map<number, string[]> }> {
  if (dialectOf(db) === 'sqlite') {
    const rows = await todosOfUser(db, { userId });
    return {
      rows,
      tags: rows.length === 0 ? new Map() : group(await tagLinksOfUser(db, { userId })),
    };
  }
  const rows = await todosWithTagNamesOfUser(db, { userId });
  const tags = new Map<number, string[]>();
  for (const row of rows) {
    if (row.tag_names !== null) tags.set(row.id, row.tag_names.split(' ').sort(byName));
  }
  return { rows, tags };
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
