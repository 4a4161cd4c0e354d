import { Type, type Static } from '@sinclair/typebox';
import { GROUP_COLORS, LIMITS } from './constants.js';
import { NOT_BLANK } from './common.js';

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
