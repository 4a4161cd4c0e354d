import type { BulkBody, StatisticEvent, Todo } from '@tally/contract';
import { sortTodos } from '@tally/contract/todo-shape';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { AppError, badRequest } from '../shared/errors.js';
import { nextVersion } from '../shared/versions.js';
import {
  recordCompletionsAt,
  recordEventsAt,
  type TimedCompletion,
  withdrawCompletions,
} from '../statistics/record-events.js';
import { scheduleReminders } from '../reminders/schedule.js';
import { mergePlanning } from './planning.js';
import { forWrite } from './queries.js';
import { COLUMNS } from './rows.js';
import {
  advance,
  checkGroup,
  movedStart,
  planningColumns,
  planningOf,
  reopenSubtasks,
} from './service.js';
import { addTags, checkTagRoom, refreshSearchText } from '../shared/tags.js';
import { batches } from '../shared/batches.js';
import { checkParent } from './subtasks.js';
import { answer } from './tag-links.js';
import { moveToTrash, restoreFromTrash, trashedTodos } from './trash.js';

async function rowsOf(trx: Db, userId: number, ids: readonly number[]) {
  const rows = [];
  for (const batch of batches(ids)) {
    rows.push(
      ...(await forWrite(
        trx,
        trx
          .selectFrom('todos')
          .select([...COLUMNS, 'created_at'])
          .where('user_id', '=', userId)
          .where('id', 'in', batch),
      ).execute()),
    );
  }
  return rows;
}

/**
 * The todos of a bulk change that have another version than the one its `versions` names: 412
 * with them as they are now (in the trash, for restore), before anything is written.
 */
function refuseChanged(current: readonly Todo[], versions: BulkBody['versions']) {
  const changed = current.filter((todo) => {
    const expected = versions?.[String(todo.id)];
    return expected !== undefined && expected !== todo.version;
  });
  if (changed.length > 0) {
    throw new AppError(
      412,
      'Some of these todos changed since the versions you started from',
      {},
      undefined,
      sortTodos(changed, 'created'),
    );
  }
}

/**
 * POST /api/todos/bulk (docs/product.md, Bulk changes and undo): one transaction; null (and
 * nothing changed) when an id is not one of the caller's todos (for restore: in their trash).
 * Each todo changed is counted as its single call counts it, all at the same instant.
 */
export function createBulkService(db: Kysely<Database>, clock: Clock) {
  return async function bulk(userId: number, body: BulkBody, zone: string): Promise<Todo[] | null> {
    const { action } = body;
    if (action === 'move' && body.groupId === undefined) {
      throw badRequest('groupId is required to move todos (null for no group)');
    }
    if (action !== 'move' && body.groupId !== undefined) {
      throw badRequest('groupId is only for the move action');
    }
    // Each of the task model's actions (decision 083) takes one field, and only it takes that
    // field.
    const needs = {
      tag: 'tag',
      untag: 'tag',
      priority: 'priority',
      parent: 'parentId',
      due: 'dueDate',
    } as const;
    for (const field of ['tag', 'priority', 'parentId', 'dueDate'] as const) {
      const needed = Object.entries(needs).some(([a, f]) => a === action && f === field);
      if (needed && body[field] === undefined) {
        throw badRequest(`${field} is required for the ${action} action`);
      }
      if (!needed && body[field] !== undefined) {
        throw badRequest(`${field} is not for the ${action} action`);
      }
    }
    const ids = [...new Set(body.ids)];
    const stray = Object.keys(body.versions ?? {}).find((id) => !ids.includes(Number(id)));
    if (stray !== undefined) throw badRequest(`versions: ${stray} is not one of ids`);
    const now = clock();
    return db.transaction().execute(async (trx) => {
      if (action === 'restore') {
        if (body.versions !== undefined) {
          refuseChanged(await trashedTodos(trx, userId, ids), body.versions);
        }
        return restoreFromTrash(trx, userId, ids, zone, now);
      }
      const rows = await rowsOf(trx, userId, ids);
      if (rows.length !== ids.length) return null;
      if (body.versions !== undefined) refuseChanged(await answer(trx, rows), body.versions);
      const events: StatisticEvent[] = [];
      let changed: Todo[];

      if (action === 'delete') {
        const moved = await moveToTrash(trx, userId, ids, now);
        events.push(...moved.map((): StatisticEvent => 'todosDeleted'));
        changed = moved;
      } else if (action === 'move') {
        const groupId = body.groupId ?? null;
        await checkGroup(trx, userId, groupId);
        const moving = rows.filter((row) => row.group_id !== groupId).map((row) => row.id);
        for (const batch of batches(moving)) {
          await trx
            .updateTable('todos')
            .set({ group_id: groupId, updated_at: now, version: nextVersion })
            .where('user_id', '=', userId)
            .where('id', 'in', batch)
            .execute();
        }
        events.push(...moving.map((): StatisticEvent => 'todosUpdated'));
        changed = await answer(trx, await rowsOf(trx, userId, moving));
      } else if (action === 'tag' || action === 'untag') {
        const tag = body.tag ?? '';
        if (action === 'tag') {
          await checkTagRoom(trx, ids, tag);
          await addTags(trx, userId, ids, [tag], now);
        } else {
          for (const batch of batches(ids)) {
            await trx
              .deleteFrom('todo_tags')
              .where('todo_id', 'in', batch)
              .where('tag_id', 'in', (eb) =>
                eb
                  .selectFrom('tags')
                  .select('id')
                  .where('user_id', '=', userId)
                  .where('name_lower', '=', tag.toLowerCase()),
              )
              .execute();
          }
        }
        await refreshSearchText(trx, userId, ids);
        events.push(...ids.map((): StatisticEvent => 'todosUpdated'));
        changed = await answer(trx, await rowsOf(trx, userId, ids));
      } else if (action === 'priority' || action === 'parent') {
        const parentId = body.parentId ?? null;
        if (action === 'parent') {
          // Every todo must be able to go there: none is the parent or one of its ancestors.
          for (const id of ids) await checkParent(trx, userId, id, parentId);
        }
        for (const batch of batches(ids)) {
          await trx
            .updateTable('todos')
            .set(
              action === 'priority'
                ? { priority: body.priority ?? 0, updated_at: now, version: nextVersion }
                : { parent_id: parentId, position: -now, updated_at: now, version: nextVersion },
            )
            .where('user_id', '=', userId)
            .where('id', 'in', batch)
            .execute();
        }
        events.push(...ids.map((): StatisticEvent => 'todosUpdated'));
        changed = await answer(trx, await rowsOf(trx, userId, ids));
      } else if (action === 'due') {
        // As the single edit of the due date does it: a time and a repeat stay with a new date and
        // go with a cleared one, and a start date moves by as many days as the due date.
        const dueDate = body.dueDate ?? null;
        const moving = rows.filter((row) => row.due_date !== dueDate);
        for (const row of moving) {
          const planning = mergePlanning(planningOf(row), { dueDate });
          await trx
            .updateTable('todos')
            .set({
              ...planningColumns(planning),
              start_date: movedStart(row.start_date, row.due_date, dueDate),
              ...(planning.dueTime === null ? { reminder_minutes: null } : {}),
              updated_at: now,
              version: nextVersion,
            })
            .where('user_id', '=', userId)
            .where('id', '=', row.id)
            .execute();
        }
        events.push(...moving.map((): StatisticEvent => 'todosUpdated'));
        changed = await answer(
          trx,
          await rowsOf(
            trx,
            userId,
            moving.map((row) => row.id),
          ),
        );
      } else if (action === 'reopen') {
        const reopening = rows.filter((row) => row.completed === 1).map((row) => row.id);
        for (const batch of batches(reopening)) {
          await trx
            .updateTable('todos')
            .set({ completed: 0, updated_at: now, version: nextVersion })
            .where('user_id', '=', userId)
            .where('id', 'in', batch)
            .execute();
        }
        events.push(...reopening.map((): StatisticEvent => 'todosUpdated'));
        // Reopened (an Undo of a bulk completion, or later): they did not stay done.
        await withdrawCompletions(trx, userId, reopening);
        changed = await answer(trx, await rowsOf(trx, userId, reopening));
      } else {
        // complete: as PUT does it, a repeating todo moves to its next occurrence, still open.
        const open = rows.filter((row) => row.completed === 0);
        const repeating = open
          .filter((row) => row.repeat !== null)
          .map((row) => ({ row, next: advance(planningOf(row), now, zone) }));
        // A repeating todo whose dates have ended is completed like one that does not repeat.
        const plain = [
          ...open.filter((row) => row.repeat === null),
          ...repeating.filter(({ next }) => next === null).map(({ row }) => row),
        ].map((row) => row.id);
        for (const batch of batches(plain)) {
          await trx
            .updateTable('todos')
            .set({ completed: 1, updated_at: now, version: nextVersion })
            .where('user_id', '=', userId)
            .where('id', 'in', batch)
            .execute();
        }
        // A repeating parent moved on: its subtasks start over for the next occurrence.
        await reopenSubtasks(
          trx,
          userId,
          repeating.flatMap(({ row, next }) => (next === null ? [] : [row.id])),
          now,
        );
        for (const { row, next } of repeating) {
          if (next === null) continue;
          await trx
            .updateTable('todos')
            .set({
              ...planningColumns(next),
              start_date: movedStart(row.start_date, row.due_date, next.dueDate),
              updated_at: now,
              version: nextVersion,
            })
            .where('user_id', '=', userId)
            .where('id', '=', row.id)
            .execute();
        }
        const completions: TimedCompletion[] = open.map((row) => ({
          todoId: row.id,
          groupId: row.group_id,
          createdAt: row.created_at,
          dueDate: row.due_date,
          dueTime: row.due_time,
          at: now,
        }));
        await recordCompletionsAt(trx, userId, completions, zone);
        events.push(...open.flatMap((): StatisticEvent[] => ['todosUpdated', 'todosCompleted']));
        changed = await answer(
          trx,
          await rowsOf(
            trx,
            userId,
            open.map((row) => row.id),
          ),
        );
      }
      // Completing cancels a reminder (or moves a repeat's on); reopening arms it again, and a new
      // due date moves it.
      if (action === 'complete' || action === 'reopen' || action === 'due') {
        await scheduleReminders(trx, userId, changed, zone, now);
      }
      await recordEventsAt(
        trx,
        userId,
        events.map((type) => ({ type, at: now })),
      );
      return sortTodos(changed, 'created');
    });
  };
}
