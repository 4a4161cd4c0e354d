import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

/**
 * The private calendar feed (docs/product.md, Calendar feed): the open todos with a due date as
 * an iCalendar (RFC 5545) file at a secret URL, for calendar apps to subscribe to.
 */

export const CalendarFeedSchema = Type.Object(
  {
    path: Type.String({
      description:
        'Where the feed is, /api/calendar/{secret}.ics: anyone with it can read the feed',
    }),
    timeZone: Type.String({
      description:
        'The IANA zone of timed todos, taken from x-time-zone when the URL was made or regenerated',
    }),
    createdAt: Type.String({
      format: 'date-time',
      description: 'When this URL was made (ISO 8601, UTC)',
    }),
  },
  { additionalProperties: false },
);
export type CalendarFeed = Static<typeof CalendarFeedSchema>;

const FeedParamsSchema = Type.Object(
  { secret: Type.String({ maxLength: 128, description: 'The secret of the feed URL' }) },
  { additionalProperties: false },
);

export const calendarApi = defineEndpoints('calendar', routes.calendar, {
  get: {
    summary: "The account's calendar feed URL, or null when it has none",
    responses: {
      200: Type.Union([CalendarFeedSchema, Type.Null()]),
      401: ErrorSchema,
      403: ErrorSchema,
    },
  },
  regenerate: {
    summary: 'Make the feed URL, or a new one: the old URL stops working at once',
    description:
      'Timed todos appear in the time zone of the x-time-zone header (UTC when absent or unknown), which the feed keeps.',
    responses: { 201: CalendarFeedSchema, 401: ErrorSchema, 403: ErrorSchema },
  },
  remove: {
    summary: 'Turn the feed off: its URL stops working',
    responses: { 204: NoContent('Turned off'), 401: ErrorSchema, 403: ErrorSchema },
  },
  feed: {
    summary: "The account's open todos with a due date, as an iCalendar (RFC 5545) file",
    description:
      'Public: the secret in the URL is the only credential (a bearer token is ignored). All-day ' +
      'todos are VALUE=DATE events; timed ones are in the zone kept with the URL (with its ' +
      'VTIMEZONE); repeating ones carry an RRULE, except a rule counted from completion, which ' +
      'shows its next occurrence only. Content-Type text/calendar; ETag and Last-Modified, 304 ' +
      'on If-None-Match or If-Modified-Since. Rate limited per IP (429 with Retry-After).',
    params: FeedParamsSchema,
    produces: 'text/calendar',
    responses: {
      200: Type.String({ description: 'An iCalendar file (text/calendar; charset=utf-8)' }),
      304: NoContent('Not modified since the ETag or date the client sent'),
      404: ErrorSchema,
      429: ErrorSchema,
    },
  },
});
