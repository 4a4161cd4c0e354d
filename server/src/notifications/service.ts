import { randomBytes, randomUUID } from 'node:crypto';
import {
  CHANNEL_TOKEN_PATTERN,
  NTFY_TOPIC_PATTERN,
  PUSHOVER_KEY_PATTERN,
  type Channel,
  type ChannelTestResult,
  type CreateChannelBody,
  type CreatedChannel,
  type Delivery,
  type NotificationSettings,
  type UpdateChannelBody,
  type UpdateNotificationSettingsBody,
  type WebhookEventType,
  type WebhookPayload,
} from '@tally/contract';
import type { Kysely, Selectable } from 'kysely';
import { userPreferences } from '../account/preferences.js';
import type { Database } from '../db/schema.js';
import { directed, textsFor, type ServerTexts } from '../shared/languages/index.js';
import type { Clock } from '../shared/clock.js';
import { badRequest } from '../shared/errors.js';
import { isoTime } from '../shared/iso-time.js';
import type { Mailer } from '../shared/mailer.js';
import type { ActionLinks, ReminderAction } from './action-links.js';
import { escapeHtml, reminderMail } from './email.js';
import { outboundUrlProblem, sendOutbound } from './outbound.js';
import { clockTimeOf, minutesOf, quietHoursEnd } from './quiet-hours.js';
import { humanText, requestFor, type Message } from './requests.js';
import { inHalfTheLoop } from '../shared/time-slices.js';

type TodoEventData = Extract<WebhookPayload['data'], { completed: boolean }>;
type ChannelRow = Selectable<Database['notification_channels']>;
type DeliveryRow = Selectable<Database['notification_deliveries']>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/**
 * Waits after each failed attempt (the Standard Webhooks schedule): eight attempts over 27.5
 * hours, so a receiver down for a day still gets what happened.
 */
const RETRY_DELAYS = [5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
/** A reminder to a phone more than an hour late is no use: it is dropped then. */
const REMINDER_EXPIRES_MS = HOUR;
/** A channel that has failed for this long is turned off. */
const FAILING_LIMIT_MS = 3 * DAY;
const DISABLED_REASON = 'Turned off after failing for 3 days';
/** Longer than one attempt can take (10 s), so a lease never ends under a send. */
const LEASE_MS = MINUTE;
/** Deliveries claimed at a time; the event loop gets a turn between two batches (decision 176). */
const BATCH = 10;
const PUSH_ACTIONS: readonly ReminderAction[] = ['complete', 'snooze-10m'];
const LOG_LENGTH = 50;
const MAX_CHANNELS = 20;
/** Finished deliveries are kept this long: the log shows the last 50 of each channel. */
const DELIVERY_KEEP_MS = 30 * DAY;

/** What one attempt got: the receiver's HTTP status (none for e-mail), or why it failed. */
interface SendResult {
  ok: boolean;
  status: number | null;
  answer: string;
}

export interface NotificationTickResult {
  sent: number;
  failed: number;
  retried: number;
}

const hint = (secret: string | null) => (secret === null ? null : `…${secret.slice(-4)}`);

function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    url: row.url,
    topic: row.topic,
    userKey: row.user_key,
    tokenHint: hint(row.secret),
    reminders: row.reminders === 1,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    createdAt: isoTime(row.created_at),
  };
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    event: row.event,
    state: row.state,
    attempt: row.attempt,
    status: row.last_status,
    error: row.last_error,
    createdAt: isoTime(row.created_at),
    lastAttemptAt: row.last_attempt_at === null ? null : isoTime(row.last_attempt_at),
    nextAttemptAt:
      row.state === 'pending' && row.next_attempt_at !== null ? isoTime(row.next_attempt_at) : null,
  };
}

/** Which fields each kind needs: a 400 naming the first one missing. */
function checkFields(
  kind: ChannelRow['kind'],
  fields: {
    url: string | null;
    topic: string | null;
    user_key: string | null;
    secret: string | null;
  },
  allowPrivate: boolean,
) {
  const needs: Record<ChannelRow['kind'], (keyof typeof fields)[]> = {
    email: [],
    ntfy: ['url', 'topic'],
    gotify: ['url', 'secret'],
    pushover: ['user_key', 'secret'],
    webhook: ['url'],
  };
  const names = { url: 'url', topic: 'topic', user_key: 'userKey', secret: 'token' };
  for (const field of needs[kind]) {
    if (fields[field] === null) throw badRequest(`${names[field]} is required for ${kind}`);
  }
  // The creation's schema says the same; a change is checked here, once the channel is found.
  if (fields.topic !== null && !new RegExp(NTFY_TOPIC_PATTERN).test(fields.topic)) {
    throw badRequest('topic must be 1 to 64 letters, digits, - or _');
  }
  if (fields.user_key !== null && !new RegExp(PUSHOVER_KEY_PATTERN).test(fields.user_key)) {
    throw badRequest('userKey must be 30 letters and digits');
  }
  if (fields.secret !== null && !new RegExp(CHANNEL_TOKEN_PATTERN).test(fields.secret)) {
    throw badRequest('token must be 1 to 200 characters without spaces');
  }
  if (kind !== 'pushover' && kind !== 'email' && fields.url !== null) {
    const problem = outboundUrlProblem(fields.url, allowPrivate);
    if (problem) throw badRequest(problem);
  }
}

export function createNotificationService(options: {
  db: Kysely<Database>;
  clock: Clock;
  allowPrivate: boolean;
  pushoverApiUrl: string;
  mailer: Mailer | null;
  publicUrl: string;
  /** The user's zone, for quiet hours and the digest. */
  zoneOf: (userId: number) => Promise<string>;
  /** Signs the Complete and Snooze links of e-mail and ntfy reminders. */
  actionLinks: ActionLinks;
  /** Told of each attempt's outcome, for the metrics. */
  onAttempt?: (kind: ChannelRow['kind'], outcome: 'sent' | 'failed' | 'retried') => void;
  onError?: (error: unknown) => void;
}) {
  const { db, clock, allowPrivate, pushoverApiUrl, actionLinks } = options;

  async function settingsRow(userId: number) {
    const row = await db
      .selectFrom('notification_settings')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ?? null;
  }

  /** When the user's quiet hours end, if `now` is inside them; null otherwise. */
  async function quietUntil(userId: number, now: number): Promise<number | null> {
    const row = await settingsRow(userId);
    if (row?.quiet_start == null || row.quiet_end == null) return null;
    return quietHoursEnd(row.quiet_start, row.quiet_end, await options.zoneOf(userId), now);
  }

  async function readSettings(userId: number): Promise<NotificationSettings> {
    const row = await settingsRow(userId);
    return {
      quietHours:
        row?.quiet_start == null || row.quiet_end == null
          ? null
          : { start: clockTimeOf(row.quiet_start), end: clockTimeOf(row.quiet_end) },
      digestTime: row?.digest_minute == null ? null : clockTimeOf(row.digest_minute),
      timeZone: await options.zoneOf(userId),
    };
  }

  /** What the user reads, in their account's language (decision 179). */
  const textsOf = async (userId: number) => textsFor((await userPreferences(db, userId)).language);

  /** A reminder's Complete and Snooze links; none for a test (no todo behind it). */
  const linksFor = (userId: number, payload: WebhookPayload, texts: ServerTexts) =>
    payload.type === 'reminder.fired' && 'todoId' in payload.data && payload.data.todoId > 0
      ? actionLinks.reminderLinks(userId, payload.data.todoId, texts)
      : Promise.resolve([]);

  async function ownChannel(userId: number, id: number): Promise<ChannelRow | null> {
    const row = await db
      .selectFrom('notification_channels')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ?? null;
  }

  /** The rows that queue one event for each of `channels`. */
  function deliveryRows(
    channels: readonly Pick<ChannelRow, 'id' | 'kind'>[],
    type: WebhookEventType,
    data: WebhookPayload['data'],
    now: number,
    sendAt = now,
  ) {
    const payload: WebhookPayload = { type, timestamp: isoTime(now), data };
    const body = JSON.stringify(payload);
    return channels.map((channel) => ({
      channel_id: channel.id,
      message_id: `msg_${randomUUID()}`,
      event: type,
      payload: body,
      state: 'pending' as const,
      attempt: 0,
      next_attempt_at: sendAt,
      lease_until: 0,
      expires_at:
        type === 'reminder.fired' && channel.kind !== 'webhook'
          ? sendAt + REMINDER_EXPIRES_MS
          : null,
      created_at: now,
    }));
  }

  async function enqueue(
    channels: readonly Pick<ChannelRow, 'id' | 'kind'>[],
    type: WebhookEventType,
    data: WebhookPayload['data'],
    now: number,
  ) {
    if (channels.length === 0) return;
    await db
      .insertInto('notification_deliveries')
      .values(deliveryRows(channels, type, data, now))
      .execute();
  }

  /** The owner's address when Tally verified it: e-mail channels write to nothing else. */
  async function verifiedAddress(userId: number): Promise<string | null> {
    const user = await db
      .selectFrom('users')
      .select(['email', 'email_verified_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    return user && user.email_verified_at !== null ? user.email : null;
  }

  /** One message to one channel: by e-mail to the owner, or over the one outbound path. */
  async function send(channel: ChannelRow, message: Message, now: number): Promise<SendResult> {
    // A webhook gets the payload alone: no words to translate, and no query before its send.
    const texts = channel.kind === 'webhook' ? textsFor(null) : await textsOf(channel.user_id);
    if (channel.kind === 'email') {
      if (!options.mailer) return { ok: false, status: null, answer: 'SMTP is not configured' };
      const to = await verifiedAddress(channel.user_id);
      if (!to) return { ok: false, status: null, answer: 'the e-mail address is not verified' };
      const links = await linksFor(channel.user_id, message.payload, texts);
      const mail = reminderMail(
        texts,
        to,
        message.payload,
        humanText(message.payload, texts),
        links,
      );
      return options.mailer.send(mail).then(
        () => ({ ok: true, status: null, answer: `sent to ${to}` }),
        (error: unknown) => ({
          ok: false,
          status: null,
          answer: error instanceof Error ? error.message : String(error),
        }),
      );
    }
    const links =
      channel.kind === 'ntfy' ? await linksFor(channel.user_id, message.payload, texts) : [];
    const request = requestFor(
      { ...channel, kind: channel.kind },
      message,
      now,
      pushoverApiUrl,
      texts,
      links,
    );
    const answer = await sendOutbound(request, allowPrivate);
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    return { ok, ...answer };
  }

  /** Records a failed attempt on the channel; turns it off after 3 days of nothing but failures. */
  async function channelFailed(channel: ChannelRow, now: number) {
    const since = channel.failing_since ?? now;
    if (channel.failing_since === null) {
      await db
        .updateTable('notification_channels')
        .set({ failing_since: now })
        .where('id', '=', channel.id)
        .where('failing_since', 'is', null)
        .execute();
    }
    if (now - since < FAILING_LIMIT_MS || channel.enabled === 0) return;
    const turnedOff = await db
      .updateTable('notification_channels')
      .set({ enabled: 0, disabled_reason: DISABLED_REASON })
      .where('id', '=', channel.id)
      .where('enabled', '=', 1)
      .executeTakeFirst();
    await db
      .updateTable('notification_deliveries')
      .set({ state: 'dropped', next_attempt_at: null })
      .where('channel_id', '=', channel.id)
      .where('state', '=', 'pending')
      .execute();
    // Only the process that turned it off writes to the owner.
    if (Number(turnedOff.numUpdatedRows) !== 1 || !options.mailer) return;
    const owner = await db
      .selectFrom('users')
      .select(['email'])
      .where('id', '=', channel.user_id)
      .executeTakeFirst();
    if (!owner?.email) return;
    const texts = await textsOf(channel.user_id);
    const text = texts.channelOff.body(channel.name, `${options.publicUrl}/settings`);
    await options.mailer
      .send({
        to: owner.email,
        subject: texts.channelOff.subject(channel.name),
        text,
        html: directed(texts, `<p>${escapeHtml(text)}</p>`),
      })
      .catch((error: unknown) => options.onError?.(error));
  }

  /** One attempt of one claimed delivery: what came of it, written with its batch's. */
  async function attempt(delivery: DeliveryRow, channel: ChannelRow, now: number) {
    const payload = JSON.parse(delivery.payload) as WebhookPayload;
    const answer = await send(channel, { id: delivery.message_id, payload }, now);
    const tries = delivery.attempt + 1;
    const delay = RETRY_DELAYS[tries - 1];
    const next = delay === undefined ? null : now + delay;
    const expired = next === null || (delivery.expires_at !== null && next > delivery.expires_at);
    const state = answer.ok ? 'sent' : expired ? 'failed' : 'pending';
    return { delivery, channel, answer, tries, next, state } as const;
  }

  async function deliverDue(now: number, result: NotificationTickResult): Promise<number> {
    // The claim is one conditional UPDATE: of processes racing for a row, one gets it.
    const claimed = await db
      .updateTable('notification_deliveries')
      .set({ lease_until: now + LEASE_MS })
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where('lease_until', '<=', now)
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('notification_deliveries')
          .select('id')
          .where('state', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where('lease_until', '<=', now)
          .orderBy('next_attempt_at')
          .limit(BATCH),
      )
      .returningAll()
      .execute();
    if (claimed.length === 0) return 0;
    const channels = await db
      .selectFrom('notification_channels')
      .selectAll()
      .where('id', 'in', [...new Set(claimed.map((delivery) => delivery.channel_id))])
      .execute();
    const byId = new Map(channels.map((channel) => [channel.id, channel]));
    const live = claimed.flatMap((delivery) => {
      const channel = byId.get(delivery.channel_id);
      return channel && channel.enabled === 1 ? [{ delivery, channel }] : [];
    });
    const dropped = claimed.filter((delivery) => !live.some((one) => one.delivery === delivery));
    const attempts = await Promise.all(
      live.map(({ delivery, channel }) => attempt(delivery, channel, now)),
    );
    // The batch's outcomes in one transaction: on SQLite each commit waits for the disk
    // (synchronous=FULL) with the event loop held, so one commit per batch, not per delivery
    // (docs/decisions/184-one-commit-per-notification-batch.md).
    const recovered = [
      ...new Set(
        attempts
          .filter((one) => one.answer.ok && one.channel.failing_since !== null)
          .map((one) => one.channel.id),
      ),
    ];
    await db.transaction().execute(async (trx) => {
      if (dropped.length > 0) {
        await trx
          .updateTable('notification_deliveries')
          .set({ state: 'dropped', next_attempt_at: null, lease_until: 0 })
          .where(
            'id',
            'in',
            dropped.map((delivery) => delivery.id),
          )
          .execute();
      }
      for (const { delivery, answer, tries, next, state } of attempts) {
        await trx
          .updateTable('notification_deliveries')
          .set({
            state,
            attempt: tries,
            last_attempt_at: now,
            last_status: answer.status,
            last_error: answer.ok ? null : answer.answer.slice(0, 200),
            next_attempt_at: state === 'pending' ? next : null,
            lease_until: 0,
          })
          .where('id', '=', delivery.id)
          .execute();
      }
      if (recovered.length > 0) {
        await trx
          .updateTable('notification_channels')
          .set({ failing_since: null })
          .where('id', 'in', recovered)
          .execute();
      }
    });
    for (const { channel, answer, state } of attempts) {
      if (!answer.ok) await channelFailed(channel, now);
      const outcome = state === 'pending' ? 'retried' : state;
      result[outcome] += 1;
      options.onAttempt?.(channel.kind, outcome);
    }
    return claimed.length;
  }

  async function todoData(userId: number, todoId: number): Promise<TodoEventData | null> {
    const todo = await db
      .selectFrom('todos')
      .select(['id', 'title', 'completed', 'due_date', 'due_time', 'group_id'])
      .where('id', '=', todoId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!todo) return null;
    return {
      id: todo.id,
      title: todo.title,
      completed: todo.completed === 1,
      dueDate: todo.due_date,
      dueTime: todo.due_time,
      groupId: todo.group_id,
    };
  }

  /** A todo or group event: queued for the user's webhooks. */
  async function event(userId: number, type: WebhookEventType, data: WebhookPayload['data']) {
    await events(userId, type, [data]);
  }

  /** Many events of one kind (a bulk change, an import): the webhooks are looked up once. */
  async function events(
    userId: number,
    type: WebhookEventType,
    list: readonly WebhookPayload['data'][],
  ) {
    if (list.length === 0) return;
    const channels = await db
      .selectFrom('notification_channels')
      .select(['id', 'kind'])
      .where('user_id', '=', userId)
      .where('enabled', '=', 1)
      .where('kind', '=', 'webhook')
      .execute();
    const now = clock();
    for (const data of list) await enqueue(channels, type, data, now);
  }

  /** Events for todos changed together: each as it is now, or as it went to the trash. */
  async function todoEvents(userId: number, type: WebhookEventType, todoIds: readonly number[]) {
    const list: TodoEventData[] = [];
    for (const id of todoIds) {
      const data =
        type === 'todo.deleted' ? await trashedTodoData(userId, id) : await todoData(userId, id);
      if (data) list.push(data);
    }
    await events(userId, type, list);
  }

  /** A todo in the trash as a webhook event shows it (as it was before it was deleted). */
  async function trashedTodoData(userId: number, todoId: number): Promise<TodoEventData | null> {
    const row = await db
      .selectFrom('trashed_todos')
      .select('todo')
      .where('id', '=', todoId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return null;
    const todo = JSON.parse(row.todo) as {
      title: string;
      completed: number;
      due_date: string | null;
      due_time: string | null;
      group_id: number | null;
    };
    return {
      id: todoId,
      title: todo.title,
      completed: todo.completed === 1,
      dueDate: todo.due_date,
      dueTime: todo.due_time,
      groupId: todo.group_id,
    };
  }

  return {
    /** One round: every delivery due by now is attempted once, in batches. */
    async tick(): Promise<NotificationTickResult> {
      const now = clock();
      const result = { sent: 0, failed: 0, retried: 0 };
      // A full batch: there may be more, after the requests that waited meanwhile.
      await inHalfTheLoop(async () => (await deliverDue(now, result)) === BATCH);
      return result;
    },

    /** Removes finished deliveries older than the log needs. */
    async prune(): Promise<number> {
      const result = await db
        .deleteFrom('notification_deliveries')
        .where('state', '!=', 'pending')
        .where('created_at', '<', clock() - DELIVERY_KEEP_MS)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * Reminders that went out together: queued for their users' channels that take reminders,
     * to be sent when each user's quiet hours end if they are on now. One INSERT for them all,
     * so one commit (docs/decisions/184-one-commit-per-notification-batch.md).
     */
    async remindersFired(
      fired: readonly {
        userId: number;
        reminder: { todoId: number; title: string; dueDate: string; dueTime: string };
      }[],
    ) {
      if (fired.length === 0) return;
      const channels = await db
        .selectFrom('notification_channels')
        .select(['id', 'kind', 'user_id'])
        .where('user_id', 'in', [...new Set(fired.map((one) => one.userId))])
        .where('enabled', '=', 1)
        .where('reminders', '=', 1)
        .execute();
      if (channels.length === 0) return;
      const now = clock();
      const sendAt = new Map<number, number>();
      for (const userId of new Set(channels.map((channel) => channel.user_id))) {
        sendAt.set(userId, (await quietUntil(userId, now)) ?? now);
      }
      const rows = fired.flatMap(({ userId, reminder }) =>
        deliveryRows(
          channels.filter((channel) => channel.user_id === userId),
          'reminder.fired',
          reminder,
          now,
          sendAt.get(userId),
        ),
      );
      if (rows.length > 0) await db.insertInto('notification_deliveries').values(rows).execute();
    },

    /**
     * A browser notification's buttons: Complete and Snooze. Browsers show two at most, so of
     * the reminder's links these two.
     */
    async pushActions(userId: number, todoId: number) {
      const links = await actionLinks.reminderLinks(userId, todoId, await textsOf(userId));
      return links
        .filter((link) => PUSH_ACTIONS.includes(link.action))
        .map(({ action, label, url }) => ({ action, title: label, url }));
    },

    quietUntil,

    settings: readSettings,

    async updateSettings(
      userId: number,
      body: UpdateNotificationSettingsBody,
    ): Promise<NotificationSettings> {
      if (body.quietHours && body.quietHours.start === body.quietHours.end) {
        throw badRequest('quietHours: start and end must differ');
      }
      const change = {
        ...(body.quietHours === undefined
          ? {}
          : {
              quiet_start: body.quietHours ? minutesOf(body.quietHours.start) : null,
              quiet_end: body.quietHours ? minutesOf(body.quietHours.end) : null,
            }),
        ...(body.digestTime === undefined
          ? {}
          : { digest_minute: body.digestTime === null ? null : minutesOf(body.digestTime) }),
      };
      await db
        .insertInto('notification_settings')
        .values({ user_id: userId, ...change })
        .onConflict((conflict) =>
          Object.keys(change).length === 0
            ? conflict.column('user_id').doNothing()
            : conflict.column('user_id').doUpdateSet(change),
        )
        .execute();
      return readSettings(userId);
    },

    /** The todo as a webhook event shows it; null when it is not the user's (or is gone). */
    todoData,

    /** A todo's event, with the todo as it is now, or as it was before it went to the trash. */
    async todoEvent(userId: number, type: WebhookEventType, todo: number | TodoEventData | null) {
      const data = typeof todo === 'number' ? await todoData(userId, todo) : todo;
      if (data) await event(userId, type, data);
    },

    todoEvents,

    /** The todos an import created, each as todo.created. */
    async importEvents(userId: number, importId: number) {
      const rows = await db
        .selectFrom('import_todos')
        .select('todo_id')
        .where('import_id', '=', importId)
        .execute();
      await todoEvents(
        userId,
        'todo.created',
        rows.map((row) => row.todo_id),
      );
    },

    async groupEvent(userId: number, type: WebhookEventType, group: { id: number; name: string }) {
      await event(userId, type, { id: group.id, name: group.name });
    },

    async list(userId: number): Promise<Channel[]> {
      const rows = await db
        .selectFrom('notification_channels')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map(toChannel);
    },

    async create(userId: number, body: CreateChannelBody): Promise<CreatedChannel> {
      const signingSecret =
        body.kind === 'webhook' ? `whsec_${randomBytes(24).toString('base64')}` : null;
      const fields = {
        url: body.kind === 'pushover' || body.kind === 'email' ? null : (body.url ?? null),
        topic: body.kind === 'ntfy' ? (body.topic ?? null) : null,
        user_key: body.kind === 'pushover' ? (body.userKey ?? null) : null,
        secret: body.kind === 'email' ? null : (signingSecret ?? body.token ?? null),
      };
      checkFields(body.kind, fields, allowPrivate);
      if (body.kind === 'email') {
        if (!options.mailer) throw badRequest('kind: this server sends no e-mail (no SMTP_URL)');
        if (!(await verifiedAddress(userId))) {
          throw badRequest('kind: e-mail reminders need a verified e-mail address');
        }
      }
      const count = await db
        .selectFrom('notification_channels')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_CHANNELS) {
        throw badRequest(`kind: at most ${MAX_CHANNELS} channels per account`);
      }
      const row = await db
        .insertInto('notification_channels')
        .values({
          user_id: userId,
          kind: body.kind,
          name: body.name.trim(),
          ...fields,
          reminders: body.reminders === false ? 0 : 1,
          enabled: 1,
          created_at: clock(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { channel: toChannel(row), signingSecret };
    },

    async update(userId: number, id: number, body: UpdateChannelBody): Promise<Channel | null> {
      const row = await ownChannel(userId, id);
      if (!row) return null;
      const fields = {
        url: row.kind === 'pushover' || row.kind === 'email' ? null : (body.url ?? row.url),
        topic: row.kind === 'ntfy' ? (body.topic ?? row.topic) : null,
        user_key: row.kind === 'pushover' ? (body.userKey ?? row.user_key) : null,
        // A webhook's secret is Tally's own: not written by the client.
        secret:
          row.kind === 'webhook' || row.kind === 'email' ? row.secret : (body.token ?? row.secret),
      };
      checkFields(row.kind, fields, allowPrivate);
      const enabling = body.enabled === true && row.enabled === 0;
      const updated = await db
        .updateTable('notification_channels')
        .set({
          ...fields,
          ...(body.name === undefined ? {} : { name: body.name.trim() }),
          ...(body.reminders === undefined ? {} : { reminders: body.reminders ? 1 : 0 }),
          ...(body.enabled === undefined ? {} : { enabled: body.enabled ? 1 : 0 }),
          ...(enabling ? { failing_since: null, disabled_reason: null } : {}),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toChannel(updated);
    },

    async remove(userId: number, id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('notification_channels')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** Sends a test now, outside the queue, and says what came back. */
    async test(userId: number, id: number): Promise<ChannelTestResult | null> {
      const row = await ownChannel(userId, id);
      if (!row) return null;
      const now = clock();
      const payload: WebhookPayload = {
        type: 'reminder.fired',
        timestamp: isoTime(now),
        data: { todoId: 0, title: (await textsOf(userId)).reminder.test, dueDate: '', dueTime: '' },
      };
      const answer = await send(row, { id: `msg_${randomUUID()}`, payload }, now);
      return { ok: answer.ok, status: answer.status, answer: answer.answer.slice(0, 500) };
    },

    async deliveries(userId: number, id: number): Promise<Delivery[] | null> {
      if (!(await ownChannel(userId, id))) return null;
      const rows = await db
        .selectFrom('notification_deliveries')
        .selectAll()
        .where('channel_id', '=', id)
        .orderBy('id', 'desc')
        .limit(LOG_LENGTH)
        .execute();
      return rows.map(toDelivery);
    },

    /** Queues a delivery again now: a fresh round of attempts with the same webhook-id. */
    async redeliver(userId: number, deliveryId: number): Promise<Delivery | null> {
      const own = await db
        .selectFrom('notification_deliveries')
        .innerJoin(
          'notification_channels',
          'notification_channels.id',
          'notification_deliveries.channel_id',
        )
        .select('notification_deliveries.id')
        .where('notification_deliveries.id', '=', deliveryId)
        .where('notification_channels.user_id', '=', userId)
        .executeTakeFirst();
      if (!own) return null;
      const now = clock();
      await db
        .updateTable('notification_deliveries')
        .set({
          state: 'pending',
          attempt: 0,
          next_attempt_at: now,
          lease_until: 0,
          expires_at: null,
        })
        .where('id', '=', deliveryId)
        .where('state', '!=', 'pending')
        .execute();
      const row = await db
        .selectFrom('notification_deliveries')
        .selectAll()
        .where('id', '=', deliveryId)
        .executeTakeFirstOrThrow();
      return toDelivery(row);
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
