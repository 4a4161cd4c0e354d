import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema, IdParamsSchema, NO_NUL, NOT_BLANK } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { Nullable } from './nullable.js';
import { routes } from './routes.js';

/**
 * Notification channels (docs/decisions/143-notification-channels.md): where a user's reminders
 * go besides Web Push (ntfy, Gotify, Pushover), and outgoing webhooks that also hear of todo and
 * group events, signed in the Standard Webhooks format. A channel's token is written, never read
 * back: answers carry only its last four characters.
 */

/** `email` goes to the account's verified address, through the server's SMTP. */
export const CHANNEL_KINDS = ['email', 'ntfy', 'gotify', 'pushover', 'webhook'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** The events a webhook hears of, besides reminders. */
export const WEBHOOK_EVENTS = [
  'todo.created',
  'todo.updated',
  'todo.completed',
  'todo.deleted',
  'todo.restored',
  'group.created',
  'group.updated',
  'group.deleted',
  'reminder.fired',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** ntfy's topic names, Pushover's user keys and a token's characters. */
export const NTFY_TOPIC_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
export const PUSHOVER_KEY_PATTERN = '^[A-Za-z0-9]{30}$';
export const CHANNEL_TOKEN_PATTERN = '^[\\x21-\\x7e]{1,200}$';

const url = Type.String({
  maxLength: 1024,
  pattern: NO_NUL,
  description:
    'http or https; a public address unless the operator allows private ones (OUTBOUND_ALLOW_PRIVATE)',
});
const secret = (description: string) =>
  Type.String({ pattern: CHANNEL_TOKEN_PATTERN, description });
const name = Type.String({ minLength: 1, maxLength: 100, pattern: NOT_BLANK });

export const CreateChannelBodySchema = Type.Object(
  {
    kind: Type.Union(CHANNEL_KINDS.map((kind) => Type.Literal(kind))),
    name,
    url: Type.Optional(url),
    topic: Type.Optional(
      Type.String({ pattern: NTFY_TOPIC_PATTERN, description: 'ntfy: the topic' }),
    ),
    userKey: Type.Optional(
      Type.String({
        pattern: PUSHOVER_KEY_PATTERN,
        description: 'Pushover: the user (or group) key',
      }),
    ),
    token: Type.Optional(
      secret('ntfy: access token (optional); Gotify: app token; Pushover: API token'),
    ),
    reminders: Type.Optional(
      Type.Boolean({ description: "Whether the user's reminders go here (default true)" }),
    ),
  },
  { additionalProperties: false },
);
export type CreateChannelBody = Static<typeof CreateChannelBodySchema>;

/**
 * A change: the fields are checked as at creation, but after the channel is found to be the
 * user's (another account's id is a 404 whatever the body holds).
 */
export const UpdateChannelBodySchema = Type.Object(
  {
    name: Type.Optional(name),
    url: Type.Optional(url),
    topic: Type.Optional(Type.String({ maxLength: 200, description: 'ntfy: the topic' })),
    userKey: Type.Optional(Type.String({ maxLength: 200, description: 'Pushover: the user key' })),
    token: Type.Optional(
      Type.String({
        maxLength: 4096,
        pattern: NO_NUL,
        description: 'A new token; omitted keeps the one saved',
      }),
    ),
    reminders: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(
      Type.Boolean({ description: 'Turning a channel on again clears its failure record' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateChannelBody = Static<typeof UpdateChannelBodySchema>;

export const ChannelSchema = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union(CHANNEL_KINDS.map((kind) => Type.Literal(kind))),
    name: Type.String(),
    url: Nullable(Type.String()),
    topic: Nullable(Type.String()),
    userKey: Nullable(Type.String()),
    tokenHint: Nullable(
      Type.String({ description: "The saved token's last four characters, never the token" }),
    ),
    reminders: Type.Boolean(),
    enabled: Type.Boolean(),
    disabledReason: Nullable(
      Type.String({ description: 'Why Tally turned the channel off, when it did' }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type Channel = Static<typeof ChannelSchema>;

export const CreatedChannelSchema = Type.Object(
  {
    channel: ChannelSchema,
    signingSecret: Nullable(
      Type.String({
        description:
          "A webhook's signing secret (whsec_…), shown this once: receivers verify the " +
          'webhook-signature header with it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreatedChannel = Static<typeof CreatedChannelSchema>;

export const ChannelTestResultSchema = Type.Object(
  {
    ok: Type.Boolean(),
    status: Nullable(Type.Integer({ description: "The receiver's HTTP status" })),
    answer: Type.String({
      description: "The start of the receiver's answer, or why there was none",
    }),
  },
  { additionalProperties: false },
);
export type ChannelTestResult = Static<typeof ChannelTestResultSchema>;

export const DeliverySchema = Type.Object(
  {
    id: Type.Integer(),
    event: Type.String(),
    state: Type.Union([
      Type.Literal('pending'),
      Type.Literal('sent'),
      Type.Literal('failed'),
      Type.Literal('dropped'),
    ]),
    attempt: Type.Integer({ description: 'Attempts made so far' }),
    status: Nullable(Type.Integer({ description: 'The HTTP status of the last attempt' })),
    error: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    lastAttemptAt: Nullable(Type.String({ format: 'date-time' })),
    nextAttemptAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type Delivery = Static<typeof DeliverySchema>;

const TodoEventDataSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    completed: Type.Boolean(),
    dueDate: Nullable(Type.String()),
    dueTime: Nullable(Type.String()),
    groupId: Nullable(Type.Integer()),
  },
  { additionalProperties: false },
);
const GroupEventDataSchema = Type.Object(
  { id: Type.Integer(), name: Type.String() },
  { additionalProperties: false },
);
const ReminderEventDataSchema = Type.Object(
  {
    todoId: Type.Integer(),
    title: Type.String(),
    dueDate: Type.String(),
    dueTime: Type.String(),
  },
  { additionalProperties: false },
);

/**
 * The body of every webhook request (Standard Webhooks: type, timestamp, data). Fields are only
 * ever added; a receiver ignores what it does not know.
 */
export const WebhookPayloadSchema = Type.Object(
  {
    type: Type.Union(WEBHOOK_EVENTS.map((event) => Type.Literal(event))),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Union([TodoEventDataSchema, GroupEventDataSchema, ReminderEventDataSchema]),
  },
  { additionalProperties: false },
);
export type WebhookPayload = Static<typeof WebhookPayloadSchema>;

const ChannelParamsSchema = IdParamsSchema;

/** A clock time of the user's day, in their zone (the account's timeZone). */
const clockTime = (description: string) =>
  Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: `HH:mm: ${description}` });

export const QuietHoursSchema = Type.Object(
  {
    start: clockTime('when they begin'),
    end: clockTime('when they end (earlier than start: the next morning)'),
  },
  { additionalProperties: false },
);

export const NotificationSettingsSchema = Type.Object(
  {
    quietHours: Nullable(QuietHoursSchema, {
      description:
        'No channel sends a reminder inside them (the open app still shows it); what falls ' +
        'due goes out when they end. Null: none.',
    }),
    digestTime: Nullable(clockTime('when the daily digest e-mail goes out'), {
      description: 'Null: no digest (the default)',
    }),
    timeZone: Type.String({
      description: "The zone both are read in: the account's, UTC until the web app sets it",
    }),
  },
  { additionalProperties: false },
);
export type NotificationSettings = Static<typeof NotificationSettingsSchema>;

export const UpdateNotificationSettingsBodySchema = Type.Object(
  {
    quietHours: Type.Optional(Nullable(QuietHoursSchema)),
    digestTime: Type.Optional(Nullable(clockTime('when the daily digest goes out'))),
  },
  { additionalProperties: false },
);
export type UpdateNotificationSettingsBody = Static<typeof UpdateNotificationSettingsBodySchema>;

/** A signed link's token (a compact JWS, URL-safe), in the query: longer than a path segment may be. */
const TokenQuerySchema = Type.Object(
  { token: Type.String({ maxLength: 2048, pattern: '^[A-Za-z0-9_.-]+$' }) },
  { additionalProperties: false },
);
const page = (description: string) => Type.String({ description: `An HTML page: ${description}` });

export const notificationsApi = defineEndpoints('notifications', routes.notifications, {
  list: {
    summary: "The user's notification channels (tokens masked)",
    responses: { 200: Type.Array(ChannelSchema), 401: ErrorSchema },
  },
  create: {
    summary: 'Add a channel: e-mail, ntfy, Gotify, Pushover or a webhook',
    description:
      "e-mail needs only the account's verified address (and SMTP on the server); ntfy needs " +
      'url and topic (token optional); Gotify url and token; Pushover userKey and ' +
      'token; a webhook url, and gets a signing secret shown once. The body of each webhook ' +
      'request is a WebhookPayload.',
    body: CreateChannelBodySchema,
    responses: { 201: CreatedChannelSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  update: {
    summary: 'Change a channel (a token omitted is kept)',
    params: ChannelParamsSchema,
    body: UpdateChannelBodySchema,
    responses: { 200: ChannelSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  remove: {
    summary: 'Remove a channel and its delivery log',
    params: ChannelParamsSchema,
    responses: { 204: NoContent('Removed'), 401: ErrorSchema, 404: ErrorSchema },
  },
  test: {
    summary: 'Send a test message now and report what the receiver answered',
    params: ChannelParamsSchema,
    responses: { 200: ChannelTestResultSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  deliveries: {
    summary: "The channel's last 50 deliveries, newest first",
    params: ChannelParamsSchema,
    responses: { 200: Type.Array(DeliverySchema), 401: ErrorSchema, 404: ErrorSchema },
  },
  redeliver: {
    summary: 'Send a delivery again (a new round of attempts, same webhook-id)',
    params: IdParamsSchema,
    responses: { 200: DeliverySchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  settings: {
    summary: 'Quiet hours and the daily digest',
    responses: { 200: NotificationSettingsSchema, 401: ErrorSchema },
  },
  updateSettings: {
    summary: 'Change quiet hours or the daily digest (a field omitted is kept; null turns it off)',
    body: UpdateNotificationSettingsBodySchema,
    responses: { 200: NotificationSettingsSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  actionPage: {
    summary: "A reminder's Complete or Snooze link, as opened from an e-mail",
    description:
      'Public: the signed token is the only credential. Answers a page with one button that ' +
      'posts to the same address, so a mail scanner opening the link changes nothing.',
    query: TokenQuerySchema,
    produces: 'text/html',
    responses: { 200: page('the action and its button'), 404: page('the link is not valid') },
  },
  action: {
    summary: "Complete or snooze a reminder's todo, without signing in (a link works once)",
    description:
      'Public: the signed token names the user, the todo and the action (complete, snooze 10 ' +
      'minutes, 1 hour, or until tomorrow at the same time) and expires after 7 days. The ' +
      "reminder's links share one use: once one is used, all of them answer 410. ntfy's action " +
      'buttons post here.',
    query: TokenQuerySchema,
    produces: 'text/html',
    responses: {
      200: page('what was done'),
      404: page('the link is not valid, or the todo is gone'),
      410: page('the link was used already'),
    },
  },
  unsubscribePage: {
    summary: "The daily digest's unsubscribe link, as opened from the e-mail",
    query: TokenQuerySchema,
    produces: 'text/html',
    responses: { 200: page('one button that turns the digest off'), 404: page('not valid') },
  },
  unsubscribe: {
    summary: 'Turn the daily digest off (RFC 8058 one-click: List-Unsubscribe-Post)',
    query: TokenQuerySchema,
    produces: 'text/html',
    responses: { 200: page('the digest is off'), 404: page('the link is not valid') },
  },
});
