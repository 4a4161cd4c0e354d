import { Type, type Static } from '@sinclair/typebox';
import { LIMITS, USERNAME_PATTERN } from './constants.js';
import { NO_NUL } from './common.js';

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

/** The access token's payload as SPEC.md section 3 describes it. */
export interface AccessTokenClaims {
  sub: string;
  roles: string[];
  exp: number;
}
