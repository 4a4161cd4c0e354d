import { Type, type Static } from '@sinclair/typebox';
import { LIMITS, USERNAME_PATTERN } from './constants.js';
import { ErrorSchema, NO_NUL } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';
import { TwoFactorCodeSchema } from './two-factor.js';

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
    setupToken: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: NO_NUL,
        description:
          "The server's SETUP_TOKEN: needed to create the first account while /api/config says setupTokenRequired; ignored after that",
      }),
    ),
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

export const GoogleNonceResponseSchema = Type.Object(
  {
    nonce: Type.String({
      description:
        "For Google Identity Services' `nonce`: the hash of this browser's nonce cookie, 43 base64url characters",
    }),
  },
  { additionalProperties: false },
);
export type GoogleNonceResponse = Static<typeof GoogleNonceResponseSchema>;

export const AccessTokenResponseSchema = Type.Object(
  {
    accessToken: Type.String({ description: 'A JWT: sub (username), roles, exp (seconds)' }),
    passwordChangeRequired: Type.Optional(
      Type.Literal(true, {
        description:
          'The password is a one-time one the operator generated: until PUT /api/account/password changes it, other calls answer 403 with code password_change_required',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AccessTokenResponse = Static<typeof AccessTokenResponseSchema>;

/**
 * The ways a second step can be passed: a code from the app, a recovery code, or, for an account
 * with passkeys, signing in with one instead (POST /api/auth/passkey: two factors in itself).
 */
export const MFA_METHODS = ['totp', 'recovery', 'passkey'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

export const MfaRequiredResponseSchema = Type.Object(
  {
    mfaRequired: Type.Literal(true),
    mfaToken: Type.String({
      description:
        'For POST /api/auth/mfa within 5 minutes, from the same browser (it also got an httpOnly cookie the token is bound to)',
    }),
    methods: Type.Array(Type.Union(MFA_METHODS.map((method) => Type.Literal(method))), {
      description:
        "How the account can go on: 'totp' and 'recovery' are codes for POST /api/auth/mfa; 'passkey': it has passkeys, and a passkey sign-in (POST /api/auth/passkey) replaces this step",
    }),
  },
  { additionalProperties: false },
);
export type MfaRequiredResponse = Static<typeof MfaRequiredResponseSchema>;

export const MfaBodySchema = Type.Object(
  {
    mfaToken: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }),
    code: TwoFactorCodeSchema,
  },
  { additionalProperties: false },
);
export type MfaBody = Static<typeof MfaBodySchema>;

/**
 * A sign-in's answer: the access token, or (for an account with two-factor codes on) the second
 * step. An older client sees the second shape only if its user turned two-factor
 * codes on.
 */
export const SignInResponseSchema = Type.Union([
  AccessTokenResponseSchema,
  MfaRequiredResponseSchema,
]);
export type SignInResponse = Static<typeof SignInResponseSchema>;

/** The access token's payload as docs/product.md, Sessions, describes it. */
export interface AccessTokenClaims {
  sub: string;
  roles: string[];
  exp: number;
}

/** A link's token from a verification or password-reset e-mail (32 random bytes, base64url). */
const EmailTokenSchema = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'The token of the link in the e-mail',
});

export const VerifyEmailBodySchema = Type.Object(
  { token: EmailTokenSchema },
  { additionalProperties: false },
);
export type VerifyEmailBody = Static<typeof VerifyEmailBodySchema>;

export const VerificationAccountSchema = Type.Object(
  {
    username: Type.String({ description: 'The account the link verifies an address of' }),
    email: Type.String({ description: 'The address the link was sent to' }),
  },
  { additionalProperties: false },
);
export type VerificationAccount = Static<typeof VerificationAccountSchema>;

export const PasswordResetRequestBodySchema = Type.Object(
  { email: Type.String({ format: 'email', maxLength: LIMITS.emailMax }) },
  { additionalProperties: false },
);
export type PasswordResetRequestBody = Static<typeof PasswordResetRequestBodySchema>;

export const PasswordResetBodySchema = Type.Object(
  {
    token: EmailTokenSchema,
    password: Type.String({
      minLength: LIMITS.passwordMin,
      maxLength: LIMITS.passwordMax,
      pattern: NO_NUL,
      description: 'The new password',
    }),
  },
  { additionalProperties: false },
);
export type PasswordResetBody = Static<typeof PasswordResetBodySchema>;

const authErrors = { 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema };

export const authApi = defineEndpoints('auth', routes.auth, {
  register: {
    summary: 'Create an account and sign in',
    description:
      'With e-mail configured, a verification link is sent to the address. 403 when the operator closed sign-up (REGISTRATION=closed).',
    body: RegisterBodySchema,
    responses: { 201: AccessTokenResponseSchema, ...authErrors, 403: ErrorSchema },
  },
  login: {
    summary: 'Sign in with username and password',
    description:
      'For an account with two-factor codes on, the right password answers 200 {mfaRequired: true, mfaToken, methods} and no access token (and sets a cookie the mfaToken is bound to): send a code to POST /api/auth/mfa. 403 when an operator disabled the account (the right password only: a wrong one is 401 as for any account).',
    body: LoginBodySchema,
    responses: { 200: SignInResponseSchema, ...authErrors, 403: ErrorSchema },
  },
  googleNonce: {
    summary: 'Start a Google sign-in: the nonce for the ID token, bound to this browser',
    description:
      "Sets an httpOnly nonce cookie (path /api, 10 minutes; kept while it lives, so several tabs share it) and answers its SHA-256 hash. Pass the hash as Google Identity Services' nonce: POST /api/auth/google (and /api/account/google) accept only an ID token whose nonce claim is the hash of the cookie the request carries, and clear the cookie. 503 when Google sign-in is not configured.",
    responses: { 200: GoogleNonceResponseSchema, 429: ErrorSchema, 503: ErrorSchema },
  },
  google: {
    summary: 'Sign in with a Google ID token (Google Identity Services credential)',
    description:
      'An address an account already has answers 409, verified or not: that person signs in with the password and links Google in Settings (POST /api/account/google). 403 for a new person when sign-up is closed. An account with two-factor codes on gets the second step, as from POST /api/auth/login, unless the ID token says Google did a multi-factor sign-in (amr "mfa") and the server trusts that (TRUST_PROVIDER_MFA).',
    body: GoogleLoginBodySchema,
    responses: {
      200: SignInResponseSchema,
      ...authErrors,
      403: ErrorSchema,
      503: ErrorSchema,
    },
  },
  mfa: {
    summary: 'The second step of a sign-in: a code for the mfaToken of the login answer',
    description:
      'Answers as a login does (the access token, and the refresh cookie). The mfaToken lives 5 minutes, works only in the browser that signed in (its cookie) and gives one session. A TOTP code is accepted once; each recovery code works once. 401 for a wrong code (5 per mfaToken) or an expired token; 403 when the account is disabled; 429 after too many wrong codes for the account, except in a browser that signed in to it before.',
    body: MfaBodySchema,
    responses: {
      200: AccessTokenResponseSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      403: ErrorSchema,
      429: ErrorSchema,
    },
  },
  proxySignIn: {
    summary: 'Sign in as the user a trusted forward-auth proxy names (AUTH_PROXY_HEADER)',
    description:
      'Answers as a login does (the access token, and the refresh cookie) for the account whose username the header names, when the request comes straight from an AUTH_PROXY_TRUSTED address. 401 without such a header, 403 when no account has that username, 404 when forward auth is off. Same-origin only.',
    responses: {
      200: AccessTokenResponseSchema,
      401: ErrorSchema,
      403: ErrorSchema,
      404: ErrorSchema,
      429: ErrorSchema,
    },
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
  verifyEmail: {
    summary: 'Mark the e-mail address verified with the token of a verification link',
    description:
      'Links are single-use and valid 7 days, for the address they were sent to. 400 for a used, expired or unknown token.',
    body: VerifyEmailBodySchema,
    responses: { 204: NoContent('The address is verified'), 400: ErrorSchema, 429: ErrorSchema },
  },
  verifyEmailAccount: {
    summary: 'The account and address a verification link is for, without using the link',
    description:
      'Changes nothing: the verification page shows whose address it verifies and asks before POST /api/auth/verify-email. 400 for a used, expired or unknown token.',
    body: VerifyEmailBodySchema,
    responses: { 200: VerificationAccountSchema, 400: ErrorSchema, 429: ErrorSchema },
  },
  requestPasswordReset: {
    summary: 'Send a password-reset link to the address, if an account has it',
    description:
      'Always 202, whether or not the address belongs to an account, in the same time. Nothing is sent when the server has no e-mail configured (GET /api/config, passwordResetByEmail).',
    body: PasswordResetRequestBodySchema,
    responses: {
      202: NoContent('Accepted; a link is on its way if the address is registered'),
      400: ErrorSchema,
      429: ErrorSchema,
    },
  },
  resetPassword: {
    summary: 'Set a new password with the token of a reset link; ends every session of the account',
    description:
      'Links are single-use and valid 1 hour. The e-mail address counts as verified afterwards. 400 for a used, expired or unknown token.',
    body: PasswordResetBodySchema,
    responses: { 204: NoContent('The password is set'), 400: ErrorSchema, 429: ErrorSchema },
  },
});
