import { Type, type Static } from '@sinclair/typebox';
import { ERROR_CODES, NO_NUL, NOT_BLANK } from './constants.js';

/** Every error answer of the API: one human sentence (docs/product.md, Errors), perhaps coded. */
export const ErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'A human-readable sentence (English)' }),
    code: Type.Optional(
      Type.Union(
        ERROR_CODES.map((code) => Type.Literal(code)),
        { description: 'What went wrong, stable (see the description of the call for a 403)' },
      ),
    ),
    field: Type.Optional(
      Type.String({ description: 'The request field refused, e.g. title or body (a 400)' }),
    ),
    limit: Type.Optional(
      Type.Number({ description: 'The length or value limit the field broke (a 400)' }),
    ),
  },
  { additionalProperties: false },
);
export type ApiError = Static<typeof ErrorSchema>;

/**
 * 10000 → "10,000" for the API docs' sentences. Not toLocaleString: Intl's first use at start-up
 * maps ICU's data into every server (docs/performance.md, Footprint).
 */
export const withThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

// The text patterns live in constants.ts, which the web's forms import without the schemas.
export { NO_NUL, NOT_BLANK };

/**
 * An entity tag list as HTTP writes it (RFC 9110 8.8.3, 13.1.1): `*`, or ETags separated by
 * commas, each quoted and perhaps weak (W/), which never matches.
 */
export const IF_MATCH_PATTERN =
  '^\\s*(\\*|(W/)?"[\\x21\\x23-\\x7E]*"(\\s*,\\s*(W/)?"[\\x21\\x23-\\x7E]*")*)\\s*$';

/**
 * The precondition of a write to one todo or group (docs/decisions/113-versions-and-if-match.md):
 * the ETag the API answered for the version the client started from. Without it, the write
 * applies to whatever version is current, as always.
 */
export const IfMatchHeadersSchema = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      maxLength: 1000,
      pattern: IF_MATCH_PATTERN,
      description:
        'The ETag answered for the version this change started from (e.g. "3"), or several ' +
        'separated by commas, or * for any. When the todo (or group) has another version now, ' +
        'the answer is 412 with it as it is, and nothing changes. Leave it out to write ' +
        'whatever the current version is.',
    }),
  ),
});

/** The version field of a todo or group. */
export const VersionSchema = Type.Integer({
  minimum: 1,
  description:
    '1 when made, greater after every change from anywhere (the API, undo, import, CalDAV, a ' +
    'repeat moving on); its ETag is the quoted number, which a write may send as If-Match',
});

/**
 * What a change of a way to sign in (two-factor codes on or off, a passkey added or removed)
 * may end besides, when the person asks (ASVS 7.4.3): as a password change does, for when
 * someone else may be signed in or hold a token.
 */
export const EndOtherAccessSchema = Type.Object(
  {
    endOtherSessions: Type.Optional(
      Type.Boolean({
        description: 'Also sign out every other session of the account (default false)',
      }),
    ),
    endApiTokensAndFeed: Type.Optional(
      Type.Boolean({
        description:
          'Also revoke every personal API token and turn the calendar feed off (default false)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type EndOtherAccess = Static<typeof EndOtherAccessSchema>;

export const IdParamsSchema = Type.Object(
  { id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Numeric id' }) },
  { additionalProperties: false },
);
export type IdParams = Static<typeof IdParamsSchema>;

/** A calendar date, YYYY-MM-DD. */
export const DateStringSchema = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'A calendar date, YYYY-MM-DD',
  examples: ['2026-01-31'],
});
