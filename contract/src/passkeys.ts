import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AccessTokenResponseSchema } from './auth.js';
import { EndOtherAccessSchema, ErrorSchema, IdParamsSchema, NOT_BLANK } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

/**
 * Passkeys (WebAuthn; docs/decisions/082-passkeys.md): an account adds them in Settings and
 * signs in with one without a password. The options and responses are WebAuthn's JSON forms
 * (PublicKeyCredentialCreationOptionsJSON and so on, as @simplewebauthn/browser sends and takes
 * them); the server checks them with @simplewebauthn/server.
 */

export const PASSKEY_NAME_MAX = 64;
/** At most this many passkeys per account (remove one to add another). */
export const PASSKEYS_PER_ACCOUNT_MAX = 20;

const base64url = (description: string, maxLength: number) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+$', description });

/** An object whose other members pass through untouched (WebAuthn adds members over time). */
const open = <T extends Record<string, TSchema>>(properties: T, description?: string) =>
  Type.Object(properties, {
    additionalProperties: true,
    ...(description === undefined ? {} : { description }),
  });

const credentialDescriptor = open({
  id: Type.String(),
  type: Type.String(),
  transports: Type.Optional(Type.Array(Type.String())),
});

export const PasskeyRegistrationOptionsSchema = open(
  {
    challenge: Type.String(),
    rp: open({ id: Type.Optional(Type.String()), name: Type.String() }),
    user: open({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(open({ alg: Type.Number(), type: Type.String() })),
    timeout: Type.Optional(Type.Number()),
    excludeCredentials: Type.Optional(Type.Array(credentialDescriptor)),
    authenticatorSelection: Type.Optional(open({})),
    attestation: Type.Optional(Type.String()),
    extensions: Type.Optional(open({})),
  },
  "For the browser's navigator.credentials.create (PublicKeyCredentialCreationOptionsJSON)",
);
export type PasskeyRegistrationOptions = Static<typeof PasskeyRegistrationOptionsSchema>;

export const PasskeyAuthenticationOptionsSchema = open(
  {
    challenge: Type.String(),
    rpId: Type.Optional(Type.String()),
    timeout: Type.Optional(Type.Number()),
    allowCredentials: Type.Optional(Type.Array(credentialDescriptor)),
    userVerification: Type.Optional(Type.String()),
    extensions: Type.Optional(open({})),
  },
  "For the browser's navigator.credentials.get (PublicKeyCredentialRequestOptionsJSON)",
);
export type PasskeyAuthenticationOptions = Static<typeof PasskeyAuthenticationOptionsSchema>;

const ENCODED_MAX = 16_384;
const credentialMembers = {
  id: base64url('The credential id', 1024),
  rawId: base64url('The credential id', 1024),
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: open({}),
};

export const PasskeyRegistrationResponseSchema = Type.Object(
  {
    ...credentialMembers,
    response: Type.Object(
      {
        clientDataJSON: base64url('', ENCODED_MAX),
        attestationObject: base64url('', ENCODED_MAX),
        authenticatorData: Type.Optional(base64url('', ENCODED_MAX)),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
        publicKeyAlgorithm: Type.Optional(Type.Number()),
        publicKey: Type.Optional(base64url('', ENCODED_MAX)),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description: 'What navigator.credentials.create gave, as JSON (RegistrationResponseJSON)',
  },
);
export type PasskeyRegistrationResponse = Static<typeof PasskeyRegistrationResponseSchema>;

export const PasskeyAuthenticationResponseSchema = Type.Object(
  {
    ...credentialMembers,
    response: Type.Object(
      {
        clientDataJSON: base64url('', ENCODED_MAX),
        authenticatorData: base64url('', ENCODED_MAX),
        signature: base64url('', ENCODED_MAX),
        userHandle: Type.Optional(Type.String({ maxLength: 512, pattern: '^[A-Za-z0-9_-]*$' })),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description: 'What navigator.credentials.get gave, as JSON (AuthenticationResponseJSON)',
  },
);
export type PasskeyAuthenticationResponse = Static<typeof PasskeyAuthenticationResponseSchema>;

const name = Type.String({
  minLength: 1,
  maxLength: PASSKEY_NAME_MAX,
  pattern: NOT_BLANK,
  description: 'What the person calls it ("Phone", "YubiKey")',
});

export const PasskeySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    createdAt: Type.String({
      format: 'date-time',
      description: 'When it was added (ISO 8601, UTC)',
    }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Its last sign-in or confirmation of identity (ISO 8601, UTC), or null',
    }),
  },
  { additionalProperties: false },
);
export type Passkey = Static<typeof PasskeySchema>;

export const PasskeyListSchema = Type.Array(PasskeySchema, {
  description: "The account's passkeys, oldest first",
});

export const AddPasskeyBodySchema = Type.Object(
  { name, response: PasskeyRegistrationResponseSchema, ...EndOtherAccessSchema.properties },
  { additionalProperties: false },
);
export type AddPasskeyBody = Static<typeof AddPasskeyBodySchema>;

export const RenamePasskeyBodySchema = Type.Object({ name }, { additionalProperties: false });
export type RenamePasskeyBody = Static<typeof RenamePasskeyBodySchema>;

export const PasskeyAssertionBodySchema = Type.Object(
  { response: PasskeyAuthenticationResponseSchema },
  { additionalProperties: false },
);
export type PasskeyAssertionBody = Static<typeof PasskeyAssertionBodySchema>;

const CHALLENGE_NOTE =
  'Sets an httpOnly challenge cookie (path /api, 5 minutes): the answer is accepted only from the browser that asked, once, within 5 minutes.';

export const passkeysApi = defineEndpoints('passkeys', routes.passkeys, {
  signInOptions: {
    summary: 'Start a passkey sign-in: the options for navigator.credentials.get',
    description: `Discoverable credentials, user verification required. ${CHALLENGE_NOTE}`,
    responses: { 200: PasskeyAuthenticationOptionsSchema, 429: ErrorSchema },
  },
  signIn: {
    summary: 'Sign in with a passkey',
    description:
      'Answers as POST /api/auth/login does (the refresh cookie, an access token). A passkey is a complete multi-factor sign-in: no second step follows. 400 naming response when the challenge is unknown, used or expired; 401 when the passkey is unknown or its answer does not verify (signature, origin, user verification, a counter that went backwards); 403 when an operator disabled the account.',
    body: PasskeyAssertionBodySchema,
    responses: {
      200: AccessTokenResponseSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      403: ErrorSchema,
      429: ErrorSchema,
    },
  },
  list: {
    summary: "The account's passkeys",
    responses: { 200: PasskeyListSchema },
  },
  registrationOptions: {
    summary: 'Start adding a passkey: the options for navigator.credentials.create',
    description: `A discoverable credential with user verification; the account's passkeys are excluded. ${CHALLENGE_NOTE}`,
    responses: { 200: PasskeyRegistrationOptionsSchema, 409: ErrorSchema },
  },
  add: {
    summary: 'Add a passkey with the answer of navigator.credentials.create',
    description:
      '400 naming response when the challenge is unknown, used, expired or of another account, or the answer does not verify (origin, user verification); 409 when the credential is already registered, here or on another account. With endOtherSessions every other session ends; with endApiTokensAndFeed every API token is revoked and the calendar feed turned off.',
    body: AddPasskeyBodySchema,
    responses: { 201: PasskeySchema, 400: ErrorSchema, 409: ErrorSchema },
  },
  rename: {
    summary: 'Rename a passkey',
    params: IdParamsSchema,
    body: RenamePasskeyBodySchema,
    responses: { 200: PasskeySchema, 400: ErrorSchema, 404: ErrorSchema },
  },
  remove: {
    summary: 'Remove a passkey: it no longer signs in',
    description:
      'The body is optional: endOtherSessions and endApiTokensAndFeed as when adding one.',
    params: IdParamsSchema,
    body: EndOtherAccessSchema,
    responses: { 204: NoContent('Removed'), 404: ErrorSchema },
  },
  reauthenticationOptions: {
    summary:
      "Start proving identity with a passkey: the options, limited to the account's passkeys",
    description: `409 when the account has no passkey. ${CHALLENGE_NOTE}`,
    responses: { 200: PasskeyAuthenticationOptionsSchema, 409: ErrorSchema },
  },
  reauthenticate: {
    summary: 'Prove identity again with a passkey, for sensitive changes',
    description:
      'Like POST /api/account/reauthenticate with the password: the session may make sensitive changes for the next few minutes. 400 naming response when the challenge is unknown, used or expired, the passkey is not one of this account, or the answer does not verify.',
    body: PasskeyAssertionBodySchema,
    responses: { 204: NoContent('Identity proved'), 400: ErrorSchema },
  },
});
