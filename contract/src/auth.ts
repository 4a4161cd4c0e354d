import { Type, type Static } from '@sinclair/typebox';
import { LIMITS, USERNAME_PATTERN } from './constants.js';
import { ErrorSchema, NO_NUL } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

export const RegisterBodySchema = Type.Object(
  {
    username: Type.String({
      minLength: LIMITS.usernameMin,
      maxLength: LIMITS.usernameMax,
      pattern: USERNAME_PATTERN,
      description: "3-32 letters, digits, '.', '_' or '-'; unique ignoring case",
    }),
    email: Type.String({
      format: 'email',
      maxLength: LIMITS.emailMax,
      description: 'Unique ignoring case',
    }),
    password: Type.String({
      minLength: LIMITS.passwordMin,
      maxLength: LIMITS.passwordMax,
      pattern: NO_NUL,
    }),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBodySchema>;

export const LoginBodySchema = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: LIMITS.emailMax, pattern: NO_NUL }),
    password: Type.String({ minLength: 1, maxLength: LIMITS.passwordMax, pattern: NO_NUL }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

export const GoogleLoginBodySchema = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 8192,
      description: 'The ID-token credential from Google Identity Services',
    }),
  },
  { additionalProperties: false },
);
export type GoogleLoginBody = Static<typeof GoogleLoginBodySchema>;

export const AccessTokenResponseSchema = Type.Object(
  { accessToken: Type.String({ description: 'A JWT: sub (username), roles, exp (seconds)' }) },
  { additionalProperties: false },
);
export type AccessTokenResponse = Static<typeof AccessTokenResponseSchema>;

/** The access token's payload as docs/product.md, Sessions, describes it. */
export interface AccessTokenClaims {
  sub: string;
  roles: string[];
  exp: number;
}

const authErrors = { 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema };

export const authApi = defineEndpoints('auth', routes.auth, {
  register: {
    summary: 'Create an account and sign in',
    body: RegisterBodySchema,
    responses: { 201: AccessTokenResponseSchema, ...authErrors },
  },
  login: {
    summary: 'Sign in with username and password',
    body: LoginBodySchema,
    responses: { 200: AccessTokenResponseSchema, ...authErrors },
  },
  google: {
    summary: 'Sign in with a Google ID token (Google Identity Services credential)',
    body: GoogleLoginBodySchema,
    responses: { 200: AccessTokenResponseSchema, ...authErrors, 503: ErrorSchema },
  },
  refresh: {
    summary: 'Renew the access token with the refresh cookie (rotated on every use)',
    description: 'Same-origin only: a browser request from another site gets 403.',
    responses: { 200: AccessTokenResponseSchema, ...authErrors, 403: ErrorSchema },
  },
  logout: {
    summary: 'Revoke the refresh cookie',
    description: 'Same-origin only: a browser request from another site gets 403.',
    responses: { 204: NoContent('Signed out'), 403: ErrorSchema, 429: ErrorSchema },
  },
});
