import { randomBytes } from 'node:crypto';
import {
  type ApiToken,
  type CreateApiTokenBody,
  type CreatedApiToken,
  PERSONAL_TOKEN_PREFIX,
  TOKENS_PER_ACCOUNT_MAX,
} from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hashPersonalToken } from '../plugins/personal-tokens.js';
import type { Clock } from '../shared/clock.js';
import { badRequest, conflict, notFound } from '../shared/errors.js';

const DAY = 24 * 60 * 60 * 1000;

const iso = (epochMs: number) => new Date(epochMs).toISOString();
const isoOrNull = (epochMs: number | null) => (epochMs === null ? null : iso(epochMs));

const COLUMNS = [
  'id',
  'name',
  'scope',
  'created_at',
  'last_used_at',
  'expires_at',
  'filter_id',
] as const;

const toApiToken = (row: {
  id: number;
  name: string;
  scope: 'read' | 'read-write';
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  filter_id: number | null;
}): ApiToken => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  createdAt: iso(row.created_at),
  lastUsedAt: isoOrNull(row.last_used_at),
  expiresAt: isoOrNull(row.expires_at),
  ...(row.filter_id === null ? {} : { filterId: row.filter_id }),
});

/**
 * Personal API tokens of an account (docs/product.md, API tokens): made here, checked on each
 * request by server/src/plugins/personal-tokens.ts. Only a SHA-256 of a token is stored.
 */
export function createTokenService({ db, clock }: { db: Kysely<Database>; clock: Clock }) {
  async function list(userId: number): Promise<ApiToken[]> {
    const rows = await db
      .selectFrom('api_tokens')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toApiToken);
  }

  async function create(userId: number, body: CreateApiTokenBody): Promise<CreatedApiToken> {
    const { count } = await db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= TOKENS_PER_ACCOUNT_MAX) {
      throw conflict(
        `You have ${TOKENS_PER_ACCOUNT_MAX} API tokens, the most an account can have: revoke one first`,
      );
    }
    const filterId = body.filterId ?? null;
    if (filterId !== null) {
      if (body.scope !== 'read')
        throw badRequest('scope must be read for a token limited to a filter');
      const filter = await db
        .selectFrom('saved_filters')
        .select('id')
        .where('id', '=', filterId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!filter) throw notFound('Filter');
    }
    // 32 random bytes: 256 bits, so a token can be neither guessed nor found by its hash.
    const token = PERSONAL_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const now = clock();
    const row = {
      user_id: userId,
      name: body.name.trim(),
      scope: body.scope,
      token_hash: hashPersonalToken(token),
      created_at: now,
      expires_at: body.expiresInDays === null ? null : now + body.expiresInDays * DAY,
      last_used_at: null,
      filter_id: filterId,
    };
    const { id } = await db
      .insertInto('api_tokens')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...toApiToken({ ...row, id }), token };
  }

  /** False when the token is not the account's (or is revoked already). */
  async function revoke(userId: number, id: number): Promise<boolean> {
    const deleted = await db
      .deleteFrom('api_tokens')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) === 1;
  }

  return { list, create, revoke };
}
