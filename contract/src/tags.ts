import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './nullable.js';
import { GROUP_COLORS, TAG_NAME_PATTERN } from './constants.js';
import { ErrorSchema } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';
import { TagNameSchema } from './todos.js';

export const TagSchema = Type.Object(
  {
    name: Type.String(),
    color: Nullable(Type.String(), { description: 'One of the 8 swatches, or null for none' }),
    count: Type.Integer({ minimum: 0, description: 'How many open todos carry it' }),
  },
  { additionalProperties: false },
);
export type Tag = Static<typeof TagSchema>;

export const TagListSchema = Type.Array(TagSchema, { description: 'A-Z, case ignored' });

export const TagParamsSchema = Type.Object(
  {
    name: Type.String({
      pattern: TAG_NAME_PATTERN,
      description: 'The tag, in any case',
    }),
  },
  { additionalProperties: false },
);
export type TagParams = Static<typeof TagParamsSchema>;

export const UpdateTagBodySchema = Type.Object(
  {
    name: Type.Optional(TagNameSchema),
    color: Type.Optional(
      Type.Union([...GROUP_COLORS.map((c) => Type.Literal(c)), Type.Null()], {
        description: 'One of the 8 swatches, or null for none',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateTagBody = Static<typeof UpdateTagBodySchema>;

export const tagsApi = defineEndpoints('tags', routes.tags, {
  list: {
    summary: "The caller's tags with how many open todos carry each",
    responses: { 200: TagListSchema, 401: ErrorSchema },
  },
  update: {
    summary: 'Rename, merge or recolour a tag',
    description:
      "A new name that is another of the caller's tags (in any case) merges this one into it: " +
      'its todos carry that tag, which keeps its spelling and colour unless `color` is given.',
    params: TagParamsSchema,
    body: UpdateTagBodySchema,
    responses: { 200: TagSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  remove: {
    summary: 'Delete a tag: it leaves every todo',
    params: TagParamsSchema,
    responses: { 204: NoContent('Deleted'), 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
});
