import { Type, type Static } from '@sinclair/typebox';
import {
  ErrorSchema,
  IdParamsSchema,
  IfMatchHeadersSchema,
  NOT_BLANK,
  VersionSchema,
} from '../common.js';
import { GROUP_COLORS, LIMITS } from '../constants.js';
import { defineEndpoints, NoContent } from '../endpoint.js';
import { CalendarFeedSchema } from '../calendar.js';
import { routes } from '../routes.js';
import { FILTER_QUERY_MAX } from './filter-query.js';

/** How many saved filters a user may keep. */
export const SAVED_FILTERS_MAX = 100;

export const SavedFilterSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: Type.String({ description: 'Hex colour, one of the 8 swatches' }),
    query: Type.String({ description: 'The filter query, as GET /api/todos?filter= reads it' }),
    position: Type.Integer({ description: 'Its place among the saved filters, lower first' }),
    version: VersionSchema,
    feed: Type.Optional(CalendarFeedSchema),
  },
  { additionalProperties: false },
);
export type SavedFilter = Static<typeof SavedFilterSchema>;

export const SavedFilterListSchema = Type.Array(SavedFilterSchema, {
  description: 'By position, then oldest first',
});

export const SavedFilterBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: LIMITS.groupNameMax, pattern: NOT_BLANK }),
    color: Type.Union(
      GROUP_COLORS.map((c) => Type.Literal(c)),
      { description: 'One of the 8 swatches' },
    ),
    query: Type.String({
      minLength: 1,
      maxLength: FILTER_QUERY_MAX,
      description: 'A filter query the server can read now (else 400 saying where)',
    }),
    position: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1_000_000,
        description: 'Its place, lower first; a new filter goes last when omitted',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SavedFilterBody = Static<typeof SavedFilterBodySchema>;

export const filtersApi = defineEndpoints('filters', routes.filters, {
  list: {
    summary: "The caller's saved filters, by position",
    responses: { 200: SavedFilterListSchema, 401: ErrorSchema },
  },
  create: {
    summary: 'Save a filter',
    body: SavedFilterBodySchema,
    responses: { 201: SavedFilterSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  update: {
    summary: 'Rename, recolour, rewrite or move a saved filter',
    description:
      'With `If-Match`, a filter changed since that version gets 412 with the filter as it ' +
      'is now, and nothing changes.',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    body: SavedFilterBodySchema,
    responses: {
      200: SavedFilterSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: SavedFilterSchema,
    },
  },
  makeFeed: {
    summary: "Make (or make anew) the saved filter's own calendar feed",
    description:
      'An iCalendar feed of the todos with a due date that the filter shows, at a secret URL as ' +
      "the account's feed (GET /api/calendar/{secret}.ics); a new URL stops the old one. Timed " +
      'todos are in the x-time-zone of this call.',
    params: IdParamsSchema,
    responses: { 201: CalendarFeedSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  removeFeed: {
    summary: "Turn the saved filter's calendar feed off (its URL stops working)",
    params: IdParamsSchema,
    responses: {
      204: NoContent('Turned off'),
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
    },
  },
  remove: {
    summary: 'Delete a saved filter (its todos stay as they are)',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    responses: {
      204: NoContent('Deleted'),
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: SavedFilterSchema,
    },
  },
});
