import { Type, type Static } from '@sinclair/typebox';
import { GROUP_COLORS, LIMITS } from './constants.js';
import {
  ErrorSchema,
  IdParamsSchema,
  IfMatchHeadersSchema,
  NOT_BLANK,
  VersionSchema,
} from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

export const GroupSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: Type.String({ description: 'Hex colour, one of the 8 swatches' }),
    version: VersionSchema,
  },
  { additionalProperties: false },
);
export type Group = Static<typeof GroupSchema>;

export const GroupListSchema = Type.Array(GroupSchema, { description: 'Newest first' });

export const GroupBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: LIMITS.groupNameMax, pattern: NOT_BLANK }),
    color: Type.Union(
      GROUP_COLORS.map((c) => Type.Literal(c)),
      { description: 'One of the 8 swatches' },
    ),
  },
  { additionalProperties: false },
);
export type GroupBody = Static<typeof GroupBodySchema>;

export const groupsApi = defineEndpoints('groups', routes.groups, {
  list: {
    summary: "The caller's groups, newest first",
    responses: { 200: GroupListSchema, 401: ErrorSchema },
  },
  create: {
    summary: 'Create a group',
    body: GroupBodySchema,
    responses: { 201: GroupSchema, 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema },
  },
  update: {
    summary: 'Rename or recolour a group',
    description:
      'Answers its new version in the `ETag` header; with `If-Match`, a group changed since ' +
      'that version gets 412 with the group as it is now, and nothing changes.',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    body: GroupBodySchema,
    responses: {
      200: GroupSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      409: ErrorSchema,
      412: GroupSchema,
    },
  },
  remove: {
    summary: 'Delete a group; its todos become ungrouped',
    description:
      'Each of its todos gets a new version. With `If-Match`, a group changed since that ' +
      'version gets 412 with the group as it is now, and nothing changes.',
    params: IdParamsSchema,
    headers: IfMatchHeadersSchema,
    responses: {
      204: NoContent('Deleted'),
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      412: GroupSchema,
    },
  },
});
