import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema } from './common.js';
import { defineEndpoints } from './endpoint.js';
import { routes } from './routes.js';

/** Public settings the browser needs at run time (only these reach it: docs/product.md, API). */
export const PublicConfigSchema = Type.Object(
  {
    googleClientId: Type.Union([Type.String(), Type.Null()], {
      description: 'OAuth client id for Continue with Google; null when sign-in with Google is off',
    }),
    registration: Type.Union([Type.Literal('open'), Type.Literal('closed')], {
      description: 'Whether new accounts can be made (REGISTRATION); closed refuses sign-up',
    }),
    oidc: Type.Union(
      [
        Type.Object(
          { name: Type.String({ description: 'OIDC_NAME, for "Continue with {name}"' }) },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Sign-in with the OpenID Connect provider; null when it is off' },
    ),
    passwordSignIn: Type.Boolean({
      description:
        'False when the operator wants single sign-on alone (OIDC_ONLY): no password form, no sign-up with a password',
    }),
    authProxy: Type.Boolean({
      description:
        'True when a forward-auth proxy may sign people in (AUTH_PROXY_HEADER): /login tries POST /api/auth/proxy first',
    }),
    setupTokenRequired: Type.Boolean({
      description:
        'True while the server has no account and a SETUP_TOKEN is set: the first sign-up must carry it (setupToken)',
    }),
    passwordResetByEmail: Type.Boolean({
      description:
        'Whether the server sends e-mail (SMTP_URL): password-reset and verification links. When false the operator resets passwords.',
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

export const systemApi = defineEndpoints('system', routes.system, {
  config: {
    summary: 'Public settings the browser needs',
    responses: { 200: PublicConfigSchema },
  },
  health: {
    summary: 'Whether the server and its database answer',
    responses: { 200: HealthSchema, 503: ErrorSchema },
  },
});
