import { LIMITS } from '@tally/contract';
import { compareText } from '@tally/contract/todo-shape';
import type { Db } from '../db/schema.js';
import { batches } from './batches.js';
import { badRequest } from './errors.js';
import { searchText } from './search-text.js';
import { nextVersion } from './versions.js';

/**
 * Writing a user's tags (docs/decisions/083-tags-subtasks-and-order.md), shared by the todo
 * calls (todos/tag-links.ts) and the import: a tag is found by its lower-case name, so "Work"
 * and "work" are one tag and the first spelling stays.
 */

/** Tag names A-Z, case ignored: the order every answer lists a todo's tags in. */
export const byTagName = compareText;

/** Tag links grouped by todo id, each todo's names A-Z (case ignored). */
export function tagsByTodo(
  links: readonly { todo_id: number; name: string }[],
): Map<number, string[]> {
  const tags = new Map<number, string[]>();
  for (const { todo_id, name } of links) {
    const list = tags.get(todo_id);
    if (list) list.push(name);
    else tags.set(todo_id, [name]);
  }
  for (const list of tags.values()) list.sort(byTagName);
  return tags;
}

/** The tags of the given todos (one query per batch of ids, shared/batches.ts), by todo id, A-Z. */
export async function tagsOfTodos(db: Db, ids: readonly number[]): Promise<Map<number, string[]>> {
  const links = [];
  for (const batch of batches(ids)) {
    links.push(
      ...(await db
        .selectFrom('todo_tags')
        .innerJoin('tags', 'tags.id', 'todo_tags.tag_id')
        .select(['todo_tags.todo_id', 'tags.name'])
        .where('todo_tags.todo_id', 'in', batch)
        .execute()),
    );
  }
  return tagsByTodo(links);
}

/** The tags of every todo of the user in one read (not one per todo), by todo id, A-Z. */
export async function tagsOfUserTodos(db: Db, userId: number): Promise<Map<number, string[]>> {
  return tagsByTodo(
    await db
      .selectFrom('tags')
      .innerJoin('todo_tags', 'todo_tags.tag_id', 'tags.id')
      .select(['todo_tags.todo_id', 'tags.name'])
      .where('tags.user_id', '=', userId)
      .execute(),
  );
}

/** The names once each, case ignored, the first spelling kept; 400 beyond the limit. */
export function distinctTags(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  if (seen.size > LIMITS.tagsPerTodoMax) {
    throw badRequest(`tags must have at most ${LIMITS.tagsPerTodoMax} items`);
  }
  return [...seen.values()];
}

/**
 * A 400 naming `tags` when adding `name` would take one of these todos over the limit of tags per
 * todo (a todo that has the tag already gains nothing), so a bulk tag changes all or none.
 */
export async function checkTagRoom(
  trx: Db,
  todoIds: readonly number[],
  name: string,
): Promise<void> {
  let full = 0;
  for (const batch of batches(todoIds)) {
    const rows = await trx
      .selectFrom('todo_tags')
      .innerJoin('tags', 'tags.id', 'todo_tags.tag_id')
      .select((eb) => [
        'todo_tags.todo_id',
        eb.fn.countAll<number | string>().as('count'),
        eb.fn
          .sum<number | string>(
            eb.case().when('tags.name_lower', '=', name.toLowerCase()).then(1).else(0).end(),
          )
          .as('has'),
      ])
      .where('todo_tags.todo_id', 'in', batch)
      .groupBy('todo_tags.todo_id')
      .execute();
    full += rows.filter(
      (row) => Number(row.count) >= LIMITS.tagsPerTodoMax && Number(row.has) === 0,
    ).length;
  }
  if (full > 0) {
    const todos = full === 1 ? '1 of the todos has' : `${full} of the todos have`;
    throw badRequest(
      `tags must have at most ${LIMITS.tagsPerTodoMax} items: ${todos} ${LIMITS.tagsPerTodoMax} already`,
    );
  }
}

/**
 * The user's tags of these names, made where missing (an existing tag keeps its spelling).
 * Returns their ids. Safe against a concurrent request making the same tag: the unique index
 * (user_id, name_lower) keeps one, and both read it back.
 */
export async function ensureTags(
  trx: Db,
  userId: number,
  names: readonly string[],
  now: number,
): Promise<number[]> {
  if (names.length === 0) return [];
  await trx
    .insertInto('tags')
    .values(
      names.map((name) => ({
        user_id: userId,
        name,
        name_lower: name.toLowerCase(),
        color: null,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'name_lower']).doNothing())
    .execute();
  const rows = await trx
    .selectFrom('tags')
    .select('id')
    .where('user_id', '=', userId)
    .where(
      'name_lower',
      'in',
      names.map((name) => name.toLowerCase()),
    )
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Writes the search text of these todos again (their tags changed: a tag added, removed,
 * renamed or merged), so search finds a todo by its tags, and gives each a new version.
 */
export async function refreshSearchText(trx: Db, userId: number, todoIds: readonly number[]) {
  for (const batch of batches(todoIds)) {
    const rows = await trx
      .selectFrom('todos')
      .select(['id', 'title', 'description'])
      .where('user_id', '=', userId)
      .where('id', 'in', batch)
      .execute();
    const tags = await tagsOfTodos(trx, batch);
    for (const row of rows) {
      await trx
        .updateTable('todos')
        .set({
          search_text: searchText(row.title, row.description, tags.get(row.id) ?? []),
          // Its tags are part of the todo as the API and CalDAV answer it.
          version: nextVersion,
        })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

/** Adds tags to many todos at once (bulk), leaving their other tags. */
export async function addTags(
  trx: Db,
  userId: number,
  todoIds: readonly number[],
  names: readonly string[],
  now: number,
): Promise<void> {
  const tagIds = await ensureTags(trx, userId, distinctTags(names), now);
  for (const batch of batches(todoIds)) {
    const values = batch.flatMap((todo_id) => tagIds.map((tag_id) => ({ todo_id, tag_id })));
    if (values.length === 0) continue;
    await trx
      .insertInto('todo_tags')
      .values(values)
      .onConflict((oc) => oc.columns(['todo_id', 'tag_id']).doNothing())
      .execute();
  }
}
