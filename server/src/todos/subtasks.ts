import { LIMITS } from '@tally/contract';
import type { Db } from '../db/schema.js';
import { batches } from '../shared/batches.js';
import { AppError, badRequest } from '../shared/errors.js';

/**
 * The rules of subtasks (docs/product.md, Subtasks): a parent is one of the caller's todos, never
 * the todo itself or one of its subtasks, and nesting stops at LIMITS.subtaskLevelsMax levels.
 */

/** The parent, its parent, … up to the top level; null when the parent is not the user's. */
async function ancestry(trx: Db, userId: number, parentId: number): Promise<number[] | null> {
  const chain: number[] = [];
  let next: number | null = parentId;
  // A chain is at most LIMITS.subtaskLevelsMax long; the bound guards against a cycle anyway.
  while (next !== null && chain.length <= LIMITS.subtaskLevelsMax) {
    const row = await trx
      .selectFrom('todos')
      .select(['id', 'parent_id'])
      .where('id', '=', next)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return chain.length === 0 ? null : chain;
    chain.push(row.id);
    next = row.parent_id;
  }
  return chain;
}

/**
 * The descendants of the given todos, level by level (nearest first), without the todos
 * themselves.
 */
async function descendantLevels(
  trx: Db,
  userId: number,
  ids: readonly number[],
): Promise<number[][]> {
  const levels: number[][] = [];
  const seen = new Set(ids);
  let frontier = [...ids];
  while (frontier.length > 0 && levels.length <= LIMITS.subtaskLevelsMax) {
    const found: number[] = [];
    for (const batch of batches(frontier)) {
      const rows = await trx
        .selectFrom('todos')
        .select('id')
        .where('user_id', '=', userId)
        .where('parent_id', 'in', batch)
        .execute();
      for (const { id } of rows) {
        if (!seen.has(id)) {
          seen.add(id);
          found.push(id);
        }
      }
    }
    if (found.length > 0) levels.push(found);
    frontier = found;
  }
  return levels;
}

export const descendantsOf = async (trx: Db, userId: number, ids: readonly number[]) =>
  (await descendantLevels(trx, userId, ids)).flat();

/**
 * Checks that `parentId` may be the parent of `todoId` (null: a todo being created): 404 when
 * it is not one of the user's todos, 400 naming parentId when it is the todo itself, one of its
 * subtasks, or would nest deeper than the limit.
 */
export async function checkParent(
  trx: Db,
  userId: number,
  todoId: number | null,
  parentId: number | null,
): Promise<void> {
  if (parentId === null) return;
  if (parentId === todoId) throw badRequest('parentId cannot be the todo itself');
  const chain = await ancestry(trx, userId, parentId);
  if (chain === null) throw new AppError(404, 'Parent todo not found');
  if (todoId !== null && chain.includes(todoId)) {
    throw badRequest('parentId cannot be one of its own subtasks');
  }
  const below = todoId === null ? 0 : (await descendantLevels(trx, userId, [todoId])).length;
  // The parent's level (1 at the top), then the todo, then its own subtasks.
  if (chain.length + 1 + below > LIMITS.subtaskLevelsMax) {
    throw badRequest(`parentId would nest subtasks deeper than ${LIMITS.subtaskLevelsMax} levels`);
  }
}
