import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { type ActionClaims, type ActionLinks, SNOOZE_MS } from './action-links.js';

/**
 * What a reminder's Complete and Snooze links do when posted
 * (docs/decisions/171-reminder-actions-without-signing-in.md). The use is recorded before the
 * todo changes, by an INSERT of the token's id that a second use (or a racing process) cannot
 * repeat: a link works once, and the reminder's other links with it.
 */

export type ActionOutcome =
  | { kind: 'done'; action: ActionClaims['action']; title: string; userId: number; todoId: number }
  | { kind: 'invalid' }
  | { kind: 'used'; userId: number };

export function createReminderActions(options: {
  db: Kysely<Database>;
  clock: Clock;
  links: ActionLinks;
  /** Completes the todo as a client's PATCH would (repeats move on, events go out). */
  complete: (userId: number, todoId: number, zone: string) => Promise<boolean>;
}) {
  const { db, clock, links } = options;

  /** The open todo the claims name, with the zone its reminder was set in. */
  async function openTodo(claims: ActionClaims) {
    const todo = await db
      .selectFrom('todos')
      .leftJoin('reminders', 'reminders.todo_id', 'todos.id')
      .select(['todos.title', 'todos.due_date', 'todos.due_time', 'reminders.time_zone'])
      // Each of its reminders holds the same zone: one row is enough.
      .limit(1)
      .where('todos.id', '=', claims.todoId)
      .where('todos.user_id', '=', claims.userId)
      .where('todos.completed', '=', 0)
      .executeTakeFirst();
    return todo ?? null;
  }

  /** Brings the reminder back `ms` from now, as a reminder not yet sent. */
  async function snooze(
    claims: ActionClaims,
    todo: { due_date: string | null; due_time: string | null; time_zone: string | null },
    ms: number,
  ) {
    const fireAt = clock() + ms;
    // The reminder that went out last comes back, once: a todo's other reminders keep their
    // own times (docs/decisions/175-several-reminders-per-todo.md).
    const last = await db
      .selectFrom('reminders')
      .select('minutes_before')
      .where('todo_id', '=', claims.todoId)
      .orderBy((eb) => eb.fn.coalesce('sent_at', eb.val(-1)), 'desc')
      .orderBy('fire_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const updated = last
      ? await db
          .updateTable('reminders')
          .set({ fire_at: fireAt, sent_at: null, push_at: null })
          .where('todo_id', '=', claims.todoId)
          .where('minutes_before', '=', last.minutes_before)
          .executeTakeFirst()
      : { numUpdatedRows: 0n };
    if (Number(updated.numUpdatedRows) > 0 || todo.due_date === null || todo.due_time === null) {
      return;
    }
    await db
      .insertInto('reminders')
      .values({
        todo_id: claims.todoId,
        // The todo has no reminder left to move: this one stands for the snoozed reminder.
        minutes_before: 0,
        user_id: claims.userId,
        fire_at: fireAt,
        due_date: todo.due_date,
        due_time: todo.due_time,
        time_zone: todo.time_zone ?? 'UTC',
        sent_at: null,
      })
      .execute();
  }

  return {
    /** What the link would do, for its page; null when it is not a valid link. */
    async describe(token: string) {
      const claims = await links.readAction(token);
      if (!claims) return null;
      const todo = await openTodo(claims);
      return todo ? { action: claims.action, title: todo.title, userId: claims.userId } : null;
    },

    async use(token: string): Promise<ActionOutcome> {
      const claims = await links.readAction(token);
      if (!claims) return { kind: 'invalid' };
      // A used link says so, even once its todo is done or gone.
      const used = await db
        .selectFrom('reminder_action_uses')
        .select('token_id')
        .where('token_id', '=', claims.tokenId)
        .executeTakeFirst();
      if (used) return { kind: 'used', userId: claims.userId };
      const todo = await openTodo(claims);
      if (!todo) return { kind: 'invalid' };
      const recorded = await db
        .insertInto('reminder_action_uses')
        .values({ token_id: claims.tokenId, used_at: clock(), expires_at: claims.expiresAt })
        .onConflict((conflict) => conflict.column('token_id').doNothing())
        .returning('token_id')
        .executeTakeFirst();
      if (!recorded) return { kind: 'used', userId: claims.userId };
      if (claims.action === 'complete') {
        const done = await options.complete(claims.userId, claims.todoId, todo.time_zone ?? 'UTC');
        if (!done) return { kind: 'invalid' };
      } else {
        await snooze(claims, todo, SNOOZE_MS[claims.action]);
      }
      return {
        kind: 'done',
        action: claims.action,
        title: todo.title,
        userId: claims.userId,
        todoId: claims.todoId,
      };
    },

    /** Forgets the uses of links that have expired anyway. */
    async prune(now: number) {
      await db.deleteFrom('reminder_action_uses').where('expires_at', '<=', now).execute();
    },
  };
}
