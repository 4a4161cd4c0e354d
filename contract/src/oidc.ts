import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

/** Where the browser goes next: the provider's authorization (or logout) page. */
export const OidcRedirectSchema = Type.Object(
  {
    url: Type.String({
      description:
        "The provider's authorization URL, with PKCE (S256), state and nonce; open it in this browser (top-level navigation)",
    }),
  },
  { additionalProperties: false },
);
export type OidcRedirect = Static<typeof OidcRedirectSchema>;

export const OidcLogoutResponseSchema = Type.Object(
  {
    endSessionUrl: Type.Union([Type.String(), Type.Null()], {
      description:
        "The provider's end_session_endpoint with id_token_hint and post_logout_redirect_uri, to end the provider's session too; null when the session was not an OIDC sign-in or the provider offers none",
    }),
  },
  { additionalProperties: false },
);
export type OidcLogoutResponse = Static<typeof OidcLogoutResponseSchema>;

/** A path of the web app to come back to (never another origin). */
const ReturnToSchema = Type.String({
  pattern: '^/(?![/\\\\])[^\\u0000-\\u001f]*$',
  maxLength: 512,
  description: 'A path of the web app (starting with one /), where the browser lands afterwards',
});

export const OidcReauthenticateBodySchema = Type.Object(
  { returnTo: Type.Optional(ReturnToSchema) },
  { additionalProperties: false },
);
export type OidcReauthenticateBody = Static<typeof OidcReauthenticateBodySchema>;

/**
 * What the provider appends to the redirect URI. Providers add their own parameters (Keycloak's
 * session_state), so others are allowed and ignored; openid-client reads the URL itself.
 */
export const OidcCallbackQuerySchema = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 4096 })),
    iss: Type.Optional(Type.String({ maxLength: 4096 })),
    error: Type.Optional(Type.String({ maxLength: 4096 })),
    error_description: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: true },
);

const unconfigured = { 503: ErrorSchema };

export const oidcApi = defineEndpoints('oidc', routes.oidc, {
  start: {
    summary: 'Start a sign-in with the OpenID Connect provider (Continue with OIDC_NAME)',
    description:
      'Sets a short-lived httpOnly cookie naming this flow (10 minutes, SameSite=Lax so that the provider’s redirect back carries it) and answers the authorization URL. 503 when OIDC is not configured or its provider cannot be reached.',
    responses: { 200: OidcRedirectSchema, 429: ErrorSchema, ...unconfigured },
  },
  callback: {
    summary:
      'The redirect URI (PUBLIC_URL/api/auth/oidc/callback): finishes a sign-in, link or re-authentication',
    description:
      "Spends the flow of the browser's cookie (one use), checks state, PKCE, the ID token's signature, iss, aud, exp and nonce with openid-client, azp and a future iat itself, then answers 303: to the web app signed in (the same refresh cookie as a password sign-in), or to /login (/settings for a link or re-authentication) with ?oidc_error={code} (OIDC_FAILURES).",
    query: OidcCallbackQuerySchema,
    responses: { 303: NoContent('To the web app'), 429: ErrorSchema },
  },
  logout: {
    summary: 'Sign out, and say where to end the provider’s session too (RP-initiated logout)',
    description:
      'Ends the session of the refresh cookie as POST /api/auth/logout does. Same-origin only: a browser request from another site gets 403.',
    responses: { 200: OidcLogoutResponseSchema, 403: ErrorSchema, 429: ErrorSchema },
  },
  link: {
    summary: 'Start linking the OpenID Connect provider’s account to this account',
    description:
      'Answers the authorization URL; the callback links the identity (409-like failures come back as ?oidc_error on /settings). 503 when OIDC is not configured.',
    responses: { 200: OidcRedirectSchema, 401: ErrorSchema, ...unconfigured },
  },
  unlink: {
    summary: 'Unlink the OpenID Connect provider; signing in then needs the password or Google',
    description: '409 when the account would have no way left to sign in.',
    responses: { 204: NoContent('Unlinked'), 401: ErrorSchema, 409: ErrorSchema },
  },
  reauthenticate: {
    summary: 'Prove identity again with a fresh sign-in at the linked OpenID Connect provider',
    description:
      'For accounts that sign in with the provider (with or without a password). Answers the authorization URL; the callback marks this session recently authenticated when the linked identity comes back, and lands on returnTo (default /settings). 409 when no provider account is linked; 503 when OIDC is not configured.',
    body: OidcReauthenticateBodySchema,
    responses: {
      200: OidcRedirectSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      409: ErrorSchema,
      ...unconfigured,
    },
  },
});
