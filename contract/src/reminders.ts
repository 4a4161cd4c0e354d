import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema, NO_NUL } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

/**
 * Reminders (docs/product.md, Reminders): a todo with a due time and `remindMinutesBefore`
 * reminds its owner at that moment, by Web Push to every browser that turned reminders on, and
 * as a notice in the open app (which asks GET /api/reminders for what fired lately).
 */

/** Base64url without padding, as PushSubscription.toJSON() gives the keys. */
const base64url = (length: number, description: string) =>
  Type.String({ pattern: `^[A-Za-z0-9_-]{${length}}$`, description });

export const PushSubscriptionBodySchema = Type.Object(
  {
    endpoint: Type.String({
      maxLength: 1024,
      pattern: NO_NUL,
      description:
        "The browser's push service URL (PushSubscription.endpoint): https, on a public address",
    }),
    keys: Type.Object(
      {
        p256dh: base64url(87, "The subscription's P-256 public key (65 bytes, base64url)"),
        auth: base64url(22, "The subscription's authentication secret (16 bytes, base64url)"),
      },
      { additionalProperties: false },
    ),
  },
  // expirationTime and anything else a browser adds to toJSON() are ignored, not refused.
  { additionalProperties: true },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBodySchema>;

export const PushUnsubscribeBodySchema = Type.Object(
  {
    endpoint: Type.String({
      maxLength: 1024,
      pattern: NO_NUL,
      description: 'The endpoint that was subscribed',
    }),
  },
  { additionalProperties: false },
);
export type PushUnsubscribeBody = Static<typeof PushUnsubscribeBodySchema>;

export const PushKeySchema = Type.Object(
  {
    publicKey: Type.String({
      description:
        "The server's VAPID public key (base64url), the applicationServerKey of PushManager.subscribe",
    }),
  },
  { additionalProperties: false },
);
export type PushKey = Static<typeof PushKeySchema>;

/** A reminder that went out: what a push carries, and what the open app shows. */
export const ReminderSchema = Type.Object(
  {
    todoId: Type.Integer(),
    title: Type.String(),
    dueDate: Type.String({ description: 'YYYY-MM-DD' }),
    dueTime: Type.String({ description: 'HH:mm' }),
    firedAt: Type.String({ format: 'date-time', description: 'When it went out (ISO 8601, UTC)' }),
  },
  { additionalProperties: false },
);
export type Reminder = Static<typeof ReminderSchema>;

export const RecentRemindersQuerySchema = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only reminders that went out after this instant (at most an hour ago)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RecentRemindersQuery = Static<typeof RecentRemindersQuerySchema>;

export const remindersApi = defineEndpoints('reminders', routes.reminders, {
  pushKey: {
    summary: "The server's VAPID public key, to subscribe a browser to Web Push",
    responses: { 200: PushKeySchema, 401: ErrorSchema },
  },
  subscribe: {
    summary: "Turn reminders on for a browser: keep its push subscription (again: it's updated)",
    description:
      'The endpoint must be an https URL whose host is a public address (never loopback or a ' +
      'private network). A push service that answers 404 or 410 ends the subscription. An ' +
      'endpoint another account registered passes to this one only with the keys it was ' +
      'registered with (the same browser); otherwise 409.',
    body: PushSubscriptionBodySchema,
    responses: {
      204: NoContent('Subscribed'),
      400: ErrorSchema,
      401: ErrorSchema,
      409: ErrorSchema,
    },
  },
  unsubscribe: {
    summary: 'Turn reminders off for a browser (nothing happens when it was not subscribed)',
    body: PushUnsubscribeBodySchema,
    responses: { 204: NoContent('Unsubscribed'), 400: ErrorSchema, 401: ErrorSchema },
  },
  recent: {
    summary: 'Reminders that went out in the last hour, oldest first',
    description: 'The open app asks for them to show each as a notice.',
    query: RecentRemindersQuerySchema,
    responses: { 200: Type.Array(ReminderSchema), 400: ErrorSchema, 401: ErrorSchema },
  },
});
