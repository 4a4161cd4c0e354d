import { Type, type Static } from '@sinclair/typebox';
import { EndOtherAccessSchema, ErrorSchema, NO_NUL } from './common.js';
import { LIMITS } from './constants.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

/**
 * Two-factor codes (docs/decisions/081-two-factor-codes.md): an authenticator app's TOTP codes
 * (RFC 6238: SHA-1, 6 digits, 30 s) and one-time recovery codes, asked after the password.
 */

/** How many recovery codes a setup gives. */
export const RECOVERY_CODE_COUNT = 10;

export const TwoFactorCodeSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: NO_NUL,
  description:
    'The 6 digits the authenticator app shows, or one of the recovery codes (spaces and dashes are ignored)',
});

export const TwoFactorStatusSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    enabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    recoveryCodesLeft: Type.Integer({ minimum: 0, description: 'Unused recovery codes' }),
  },
  { additionalProperties: false },
);
export type TwoFactorStatus = Static<typeof TwoFactorStatusSchema>;

export const TwoFactorSetupSchema = Type.Object(
  {
    secret: Type.String({
      description: 'The TOTP secret in base32, to type into an app that cannot scan (shown once)',
    }),
    otpauthUri: Type.String({ description: 'The otpauth:// URI the QR code holds' }),
    qrCode: Type.String({ description: 'The QR code of otpauthUri, as a data: URL of an SVG' }),
  },
  { additionalProperties: false },
);
export type TwoFactorSetup = Static<typeof TwoFactorSetupSchema>;

export const TwoFactorConfirmBodySchema = Type.Object(
  { code: TwoFactorCodeSchema, ...EndOtherAccessSchema.properties },
  { additionalProperties: false },
);
export type TwoFactorConfirmBody = Static<typeof TwoFactorConfirmBodySchema>;

export const RecoveryCodesSchema = Type.Object(
  {
    recoveryCodes: Type.Array(Type.String(), {
      minItems: RECOVERY_CODE_COUNT,
      maxItems: RECOVERY_CODE_COUNT,
      description: 'Shown once: Tally keeps only their hashes. Each works once instead of a code.',
    }),
  },
  { additionalProperties: false },
);
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>;

export const TwoFactorDisableBodySchema = Type.Object(
  {
    code: Type.Optional(TwoFactorCodeSchema),
    password: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.passwordMax, pattern: NO_NUL }),
    ),
    ...EndOtherAccessSchema.properties,
  },
  { additionalProperties: false, description: 'Either a current code or the password' },
);
export type TwoFactorDisableBody = Static<typeof TwoFactorDisableBodySchema>;

export const twoFactorApi = defineEndpoints('two-factor', routes.twoFactor, {
  status: {
    summary: 'Whether the account asks for a two-factor code at sign-in',
    responses: { 200: TwoFactorStatusSchema },
  },
  setup: {
    summary: 'Start setting up an authenticator app: a new secret and its QR code',
    description:
      'Replaces an unfinished setup; nothing changes at sign-in until POST /api/account/two-factor confirms a code. 409 when two-factor codes are already on.',
    responses: { 200: TwoFactorSetupSchema, 409: ErrorSchema },
  },
  enable: {
    summary: 'Turn two-factor codes on with a code from the app; answers the recovery codes',
    description:
      '400 naming code when it is not right; 409 without a setup or when already on; 429 after too many wrong codes. With endOtherSessions every other session ends; with endApiTokensAndFeed every API token is revoked and the calendar feed turned off.',
    body: TwoFactorConfirmBodySchema,
    responses: { 201: RecoveryCodesSchema, 400: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema },
  },
  disable: {
    summary: 'Turn two-factor codes off, with a current code (or a recovery code) or the password',
    description:
      'Forgets the secret and the recovery codes. 400 naming code or password when it is not right; 409 when they are not on. endOtherSessions and endApiTokensAndFeed as when turning them on.',
    body: TwoFactorDisableBodySchema,
    responses: {
      204: NoContent('Sign-in asks for the password only'),
      400: ErrorSchema,
      409: ErrorSchema,
      429: ErrorSchema,
    },
  },
});
