import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema } from './common.js';
import {
  LIVE_CLIENT_HEADER,
  LIVE_CLIENT_PATTERN,
  LIVE_HEARTBEAT_SECONDS,
  LIVE_MAX_STREAMS_PER_USER,
} from './constants.js';
import { defineEndpoints } from './endpoint.js';
import { routes } from './routes.js';

const id = Type.Integer({ minimum: 1, description: 'The id of what changed' });
const client = Type.Optional(
  Type.String({
    pattern: LIVE_CLIENT_PATTERN,
    description: `The ${LIVE_CLIENT_HEADER} header of the request that made the change, when it sent one`,
  }),
);

/**
 * What GET /api/events tells a user's other clients: which kind of thing changed and its id,
 * never its content (a client fetches what it shows again). Published by the server after the
 * change is committed, to every open stream of that user, whichever process holds it.
 */
export const LiveEventSchema = Type.Union([
  Type.Object(
    {
      type: Type.Union([
        Type.Literal('todo.created'),
        Type.Literal('todo.updated'),
        Type.Literal('todo.deleted'),
      ]),
      id,
      client,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Union([
        Type.Literal('group.created'),
        Type.Literal('group.updated'),
        Type.Literal('group.deleted'),
      ]),
      id,
      client,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Union([
        Type.Literal('filter.created'),
        Type.Literal('filter.updated'),
        Type.Literal('filter.deleted'),
      ]),
      id,
      client,
    },
    { additionalProperties: false, description: 'A saved filter (GET /api/filters) changed' },
  ),
  Type.Object(
    { type: Type.Literal('sorts.updated'), client },
    {
      additionalProperties: false,
      description: 'The sort chosen for a view (GET /api/todos/sorts) changed',
    },
  ),
  Type.Object(
    { type: Type.Literal('reminder.fired'), id },
    {
      additionalProperties: false,
      description:
        'A reminder of the todo `id` went out: an open app shows it (GET /api/reminders/recent)',
    },
  ),
  Type.Object(
    { type: Type.Literal('todos.changed'), client },
    {
      additionalProperties: false,
      description:
        'Many todos (and perhaps groups) at once: an import, a bulk change, the trash emptied',
    },
  ),
]);
export type LiveEvent = Static<typeof LiveEventSchema>;

export const liveApi = defineEndpoints('live', routes.live, {
  events: {
    summary: "Server-sent events: what changed in the caller's data, as it happens",
    description:
      'A text/event-stream that stays open. It starts with `event: ready` once the server ' +
      'listens for the caller, then sends one `data:` line per change (a JSON LiveEvent: ' +
      `type and id) and a comment line every ${LIVE_HEARTBEAT_SECONDS} s. The server ends it ` +
      'when the access token expires or the session ends (checked at each heartbeat) and when ' +
      'it shuts down: reconnect with a fresh token, with backoff, and fetch again what may ' +
      'have changed meanwhile. Authenticated by the Authorization header like every call ' +
      `(never a token in the URL). At most ${LIVE_MAX_STREAMS_PER_USER} streams per user and ` +
      'server process (429 beyond).',
    produces: 'text/event-stream',
    responses: {
      200: Type.String({ description: 'text/event-stream; charset=utf-8' }),
      401: ErrorSchema,
      429: ErrorSchema,
      503: ErrorSchema,
    },
  },
});
