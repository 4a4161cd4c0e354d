import { Type, type Static } from '@sinclair/typebox';

/** Public settings the browser needs at run time (DECISIONS.md: only these reach it). */
export const PublicConfigSchema = Type.Object(
  {
    googleClientId: Type.Union([Type.String(), Type.Null()], {
      description: 'OAuth client id for Continue with Google; null when sign-in with Google is off',
    }),
  },
  { additionalProperties: false },
);
export type PublicConfig = Static<typeof PublicConfigSchema>;

export const HealthSchema = Type.Object(
  { status: Type.Literal('ok') },
  { additionalProperties: false },
);
export type Health = Static<typeof HealthSchema>;
