import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema, NOT_BLANK } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

/**
 * Personal API tokens (docs/product.md, API tokens; docs/decisions/050-api-tokens-and-calendar-feed.md):
 * named, read or read-write, with an optional expiry, shown once and stored as a SHA-256.
 */

/** Every personal API token starts with this, so the server tells one from a JWT at a glance. */
export const PERSONAL_TOKEN_PREFIX = 'tally_pat_';

/** The expiries offered, in days; null never expires. */
export const TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;

export const TOKEN_SCOPES = ['read', 'read-write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** At most this many tokens per account (revoke one to make another). */
export const TOKENS_PER_ACCOUNT_MAX = 50;
export const TOKEN_NAME_MAX = 100;

/** Requests per minute per token before 429. */
export const TOKEN_REQUESTS_PER_MINUTE = 600;

/**
 * Calls that need a signed-in session: a personal token is refused there (403), so it can
 * neither manage the account (password, sessions, tokens, the calendar secret), sign in, nor
 * act as the operator on the admin calls.
 */
export const isSessionOnlyPath = (path: string): boolean =>
  path === '/api/account' ||
  path.startsWith('/api/account/') ||
  path.startsWith('/api/auth/') ||
  path.startsWith('/api/admin/');

const instant = (description: string) =>
  Type.String({ format: 'date-time', description: `${description} (ISO 8601, UTC)` });
const nullableInstant = (description: string) =>
  Type.Union([instant(description), Type.Null()], { description: `${description}, or null` });

const scope = Type.Union(
  TOKEN_SCOPES.map((value) => Type.Literal(value)),
  { description: 'read: GET only; read-write: every call but /api/account and /api/auth' },
);

export const ApiTokenSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    scope,
    createdAt: instant('When it was made'),
    lastUsedAt: nullableInstant('Its last use (kept to the minute)'),
    expiresAt: nullableInstant('When it stops working'),
    filterId: Type.Optional(
      Type.Integer({
        description:
          "The saved filter it is limited to: it may only call GET /api/todos, which answers that filter's todos; absent when not limited",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ApiToken = Static<typeof ApiTokenSchema>;

export const ApiTokenListSchema = Type.Array(ApiTokenSchema, {
  description: "The account's tokens, newest first (expired ones too, until revoked)",
});

export const CreatedApiTokenSchema = Type.Object(
  {
    ...ApiTokenSchema.properties,
    token: Type.String({
      description: `The token itself (${PERSONAL_TOKEN_PREFIX}…): shown this once, never again`,
    }),
  },
  { additionalProperties: false },
);
export type CreatedApiToken = Static<typeof CreatedApiTokenSchema>;

export const CreateApiTokenBodySchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: TOKEN_NAME_MAX,
      pattern: NOT_BLANK,
      description: 'What it is for ("Backup script")',
    }),
    scope,
    expiresInDays: Type.Union(
      [...TOKEN_EXPIRY_DAYS.map((days) => Type.Literal(days)), Type.Null()],
      { description: 'Days until it expires: 30, 90 or 365; null for never' },
    ),
    filterId: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description:
          "Limits the token to one of the caller's saved filters (else 404): read scope only; " +
          "GET /api/todos then answers that filter's todos (a shared dashboard), every other call is a 403",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateApiTokenBody = Static<typeof CreateApiTokenBodySchema>;

const TokenIdParamsSchema = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'A token id' }) },
  { additionalProperties: false },
);

export const tokensApi = defineEndpoints('tokens', routes.tokens, {
  list: {
    summary: "The account's personal API tokens (never the tokens themselves)",
    responses: { 200: ApiTokenListSchema, 401: ErrorSchema, 403: ErrorSchema },
  },
  create: {
    summary: 'Make a personal API token; the answer holds it once',
    description:
      `Use it as \`Authorization: Bearer ${PERSONAL_TOKEN_PREFIX}…\` on /api. A read token may ` +
      'only GET; no token works on /api/account or /api/auth (403). Each token may make ' +
      `${TOKEN_REQUESTS_PER_MINUTE} requests a minute (429 with Retry-After). At most ` +
      `${TOKENS_PER_ACCOUNT_MAX} per account (409).`,
    body: CreateApiTokenBodySchema,
    responses: {
      201: CreatedApiTokenSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      403: ErrorSchema,
      409: ErrorSchema,
    },
  },
  revoke: {
    summary: 'Revoke a token: it stops working at once',
    params: TokenIdParamsSchema,
    responses: {
      204: NoContent('Revoked'),
      400: ErrorSchema,
      401: ErrorSchema,
      403: ErrorSchema,
      404: ErrorSchema,
    },
  },
});
