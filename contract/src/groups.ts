import { Type, type Static } from '@sinclair/typebox';
import { GROUP_COLORS, LIMITS } from './constants.js';
import { ErrorSchema, IdParamsSchema, NOT_BLANK } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

export const GroupSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: Type.String({ description: 'Hex colour, one of the 8 swatches' }),
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
    params: IdParamsSchema,
    body: GroupBodySchema,
    responses: {
      200: GroupSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      409: ErrorSchema,
    },
  },
  remove: {
    summary: 'Delete a group; its todos become ungrouped',
    params: IdParamsSchema,
    responses: {
      204: NoContent('Deleted'),
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
    },
  },
});
