import type { PushSubscriptionBody, Reminder } from '@tally/contract';
import type { Kysely } from 'kysely';
import { userPreferences } from '../account/preferences.js';
import type { Database } from '../db/schema.js';
import { textsFor } from '../shared/languages/index.js';
import type { Clock } from '../shared/clock.js';
import { badRequest, conflict } from '../shared/errors.js';
import { endpointProblem } from './push-endpoint.js';
import type { PushOutcome, PushSender } from './push-sender.js';
import { isoTime } from '../shared/iso-time.js';
import { inHalfTheLoop } from '../shared/time-slices.js';

/** Browsers per account: each reminder is one push to each, so a bound on what one user can fan out. */
const MAX_SUBSCRIPTIONS = 20;
/** A push endpoint registered by another account, sent without that subscription's keys. */
const ENDPOINT_TAKEN =
  'endpoint is already registered to another account: turn reminders off and on again in this browser';
/**
 * Reminders claimed per query: a backlog after downtime goes out in batches, and the event loop
 * gets back between two (inHalfTheLoop), so a request waits for one batch at most, never for the
 * whole round (docs/decisions/176-background-rounds-in-small-batches.md).
 */
export const REMINDER_BATCH = 20;
/** How far back the open app may ask what went out. */
const RECENT_MS = 60 * 60_000;

/** A reminder a poller claimed: one offset of one todo's occurrence. */
interface ClaimedReminder {
  todo_id: number;
  minutes_before: number;
  user_id: number;
  due_date: string;
  due_time: string;
}

export interface TickResult {
  /** Reminders claimed (each goes out once, whichever process claims it). */
  claimed: number;
  /** Pushes by outcome. */
  pushes: Record<PushOutcome, number>;
}

/** A notification button: what the service worker shows and the link it posts when clicked. */
export interface PushAction {
  action: string;
  title: string;
  url: string;
}

export function createReminderService(options: {
  db: Kysely<Database>;
  clock: Clock;
  sender: PushSender;
  allowLoopback: boolean;
  /** Told of each reminder that went out, so open apps show it at once (the live stream). */
  onFired?: (userId: number, todoId: number) => void;
  /**
   * Queues the reminders claimed together for their users' other channels (ntfy, Gotify,
   * Pushover, webhooks), all at once: one write for the batch.
   */
  toChannels?: (fired: readonly { userId: number; reminder: Reminder }[]) => Promise<void>;
  /** The buttons a browser's notification shows, each a signed link the worker posts to. */
  pushActions?: (userId: number, todoId: number) => Promise<PushAction[]>;
  /** When the user's quiet hours end, if they are on: the Web Push waits for it. */
  quietUntil?: (userId: number, now: number) => Promise<number | null>;
}) {
  const { db, clock, sender } = options;

  /**
   * The notification's text in the account's language (decision 179). The service worker writes
   * English itself, relative to the day it shows it ("Due Today 09:30"); it has no other
   * language's words, so for those the push carries them.
   */
  async function pushBody(userId: number, reminder: Reminder): Promise<{ body?: string }> {
    const texts = textsFor((await userPreferences(db, userId)).language);
    if (texts.tag === 'en') return {};
    return { body: texts.reminder.due(texts.date(reminder.dueDate), texts.time(reminder.dueTime)) };
  }

  /**
   * Pushes each reminder to its user's browsers, or, inside the user's quiet hours, marks it to
   * be pushed when they end (push_at). `fired` is false for such a deferred push going out: the
   * open app and the other channels heard of it when it fell due.
   */
  async function push(
    claimed: readonly ClaimedReminder[],
    now: number,
    fired: boolean,
    result: TickResult,
  ) {
    // Two reminders of one todo claimed together (a backlog, or an offset already past when
    // it was set) say the same thing: one notification for the todo.
    const rows = [...new Map(claimed.map((reminder) => [reminder.todo_id, reminder])).values()];
    const todoIds = rows.map((reminder) => reminder.todo_id);
    const userIds = [...new Set(rows.map((reminder) => reminder.user_id))];
    const [todos, subscriptions, quiet] = await Promise.all([
      db
        .selectFrom('todos')
        .select(['id', 'title'])
        .where('id', 'in', todoIds)
        .where('completed', '=', 0)
        .execute(),
      db
        .selectFrom('push_subscriptions')
        .select(['id', 'user_id', 'endpoint', 'p256dh', 'auth'])
        .where('user_id', 'in', userIds)
        .execute(),
      Promise.all(
        userIds.map(
          async (userId) => [userId, (await options.quietUntil?.(userId, now)) ?? null] as const,
        ),
      ),
    ]);
    const quietUntil = new Map(quiet);
    const titles = new Map(todos.map((todo) => [todo.id, todo.title]));
    const gone: number[] = [];
    const waiting: { todoId: number; until: number }[] = [];
    const toChannels: { userId: number; reminder: Reminder }[] = [];
    const pushes = rows.flatMap((reminder) => {
      const title = titles.get(reminder.todo_id);
      if (title === undefined) return [];
      const payload: Reminder = {
        todoId: reminder.todo_id,
        title,
        dueDate: reminder.due_date,
        dueTime: reminder.due_time,
        firedAt: isoTime(now),
      };
      if (fired) {
        toChannels.push({ userId: reminder.user_id, reminder: payload });
        options.onFired?.(reminder.user_id, reminder.todo_id);
      }
      const until = quietUntil.get(reminder.user_id) ?? null;
      const mine = subscriptions.filter((s) => s.user_id === reminder.user_id);
      if (until !== null && mine.length > 0) {
        waiting.push({ todoId: reminder.todo_id, until });
        return [];
      }
      if (mine.length === 0) return [];
      const pushAll = async () => {
        // One set of links for all the user's browsers: they share one use.
        const actions = (await options.pushActions?.(reminder.user_id, reminder.todo_id)) ?? [];
        const body = JSON.stringify({
          ...payload,
          ...(await pushBody(reminder.user_id, payload)),
          ...(actions.length > 0 ? { actions } : {}),
        });
        await Promise.all(
          mine.map(async (subscription) => {
            const outcome = await sender.send(subscription, body, `todo-${reminder.todo_id}`);
            result.pushes[outcome] += 1;
            if (outcome === 'gone') gone.push(subscription.id);
          }),
        );
      };
      return [pushAll()];
    });
    await Promise.all([
      ...pushes,
      ...(toChannels.length > 0 && options.toChannels ? [options.toChannels(toChannels)] : []),
    ]);
    for (const { todoId, until } of waiting) {
      const offsets = claimed.filter((r) => r.todo_id === todoId).map((r) => r.minutes_before);
      await db
        .updateTable('reminders')
        .set({ push_at: until })
        .where('todo_id', '=', todoId)
        .where('minutes_before', 'in', offsets)
        .execute();
    }
    if (gone.length > 0)
      await db.deleteFrom('push_subscriptions').where('id', 'in', gone).execute();
  }

  /** Claims what is due (sent_at set by a conditional UPDATE: one winner) and pushes it. */
  async function deliverDue(now: number, result: TickResult): Promise<number> {
    const claimed = await db
      .updateTable('reminders')
      .set({ sent_at: now })
      .where('sent_at', 'is', null)
      .where((eb) =>
        eb(
          eb.refTuple('todo_id', 'minutes_before'),
          'in',
          eb
            .selectFrom('reminders')
            .select(['todo_id', 'minutes_before'])
            .where('sent_at', 'is', null)
            .where('fire_at', '<=', now)
            .orderBy('fire_at')
            .limit(REMINDER_BATCH)
            .$asTuple('todo_id', 'minutes_before'),
        ),
      )
      .returning(['todo_id', 'minutes_before', 'user_id', 'due_date', 'due_time'])
      .execute();
    if (claimed.length === 0) return 0;
    result.claimed += claimed.length;
    await push(claimed, now, true, result);
    return claimed.length;
  }

  /** Claims the pushes that waited for quiet hours to end, as deliverDue claims reminders. */
  async function deliverWaiting(now: number, result: TickResult): Promise<number> {
    const claimed = await db
      .updateTable('reminders')
      .set({ push_at: null })
      .where('push_at', '<=', now)
      .where((eb) =>
        eb(
          eb.refTuple('todo_id', 'minutes_before'),
          'in',
          eb
            .selectFrom('reminders')
            .select(['todo_id', 'minutes_before'])
            .where('push_at', '<=', now)
            .orderBy('push_at')
            .limit(REMINDER_BATCH)
            .$asTuple('todo_id', 'minutes_before'),
        ),
      )
      .returning(['todo_id', 'minutes_before', 'user_id', 'due_date', 'due_time'])
      .execute();
    if (claimed.length > 0) await push(claimed, now, false, result);
    return claimed.length;
  }

  return {
    /** One round of the poller: everything due by now goes out, in batches. */
    async tick(): Promise<TickResult> {
      const now = clock();
      const result: TickResult = { claimed: 0, pushes: { sent: 0, gone: 0, failed: 0 } };
      // A full batch: there may be more, after the requests that waited meanwhile.
      await inHalfTheLoop(async () => (await deliverDue(now, result)) === REMINDER_BATCH);
      await inHalfTheLoop(async () => (await deliverWaiting(now, result)) === REMINDER_BATCH);
      return result;
    },

    async subscribe(userId: number, body: PushSubscriptionBody): Promise<void> {
      const problem = endpointProblem(body.endpoint, options.allowLoopback);
      if (problem) throw badRequest(problem);
      const now = clock();
      const keys = { p256dh: body.keys.p256dh, auth: body.keys.auth };
      await db.transaction().execute(async (trx) => {
        // One row per browser. The endpoint passes to another account only with the keys it was
        // registered with: the browser itself, signed in to that account now. Whoever knows the
        // URL alone cannot take another account's reminders over (docs/decisions/077-push-endpoint-ownership.md).
        const kept = await trx
          .insertInto('push_subscriptions')
          .values({ user_id: userId, endpoint: body.endpoint, ...keys, created_at: now })
          .onConflict((conflict) =>
            conflict
              .column('endpoint')
              .doUpdateSet({ user_id: userId, ...keys, created_at: now })
              .where((eb) =>
                eb.or([
                  eb('push_subscriptions.user_id', '=', userId),
                  eb.and([
                    eb('push_subscriptions.p256dh', '=', keys.p256dh),
                    eb('push_subscriptions.auth', '=', keys.auth),
                  ]),
                ]),
              ),
          )
          .returning('id')
          .executeTakeFirst();
        if (!kept) throw conflict(ENDPOINT_TAKEN);
        const keep = trx
          .selectFrom('push_subscriptions')
          .select('id')
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(MAX_SUBSCRIPTIONS);
        await trx
          .deleteFrom('push_subscriptions')
          .where('user_id', '=', userId)
          .where('id', 'not in', keep)
          .execute();
      });
    },

    async unsubscribe(userId: number, endpoint: string): Promise<void> {
      await db
        .deleteFrom('push_subscriptions')
        .where('user_id', '=', userId)
        .where('endpoint', '=', endpoint)
        .execute();
    },

    /** What went out for the user after `after` (at most an hour back), oldest first. */
    async recent(userId: number, after: number | null): Promise<Reminder[]> {
      const now = clock();
      const since = Math.max(after ?? 0, now - RECENT_MS);
      const rows = await db
        .selectFrom('reminders')
        .innerJoin('todos', 'todos.id', 'reminders.todo_id')
        .select([
          'reminders.todo_id',
          'todos.title',
          'reminders.due_date',
          'reminders.due_time',
          'reminders.sent_at',
        ])
        .where('reminders.user_id', '=', userId)
        .where('reminders.sent_at', '>', since)
        .where('todos.completed', '=', 0)
        .orderBy('reminders.sent_at')
        .orderBy('reminders.todo_id')
        .execute();
      // Two reminders of a todo claimed in one round went out as one notification: listed once.
      const once = new Map(rows.map((row) => [`${row.todo_id} ${row.sent_at}`, row]));
      return [...once.values()].map((row) => ({
        todoId: row.todo_id,
        title: row.title,
        dueDate: row.due_date,
        dueTime: row.due_time,
        firedAt: isoTime(row.sent_at ?? now),
      }));
    },
  };
}
