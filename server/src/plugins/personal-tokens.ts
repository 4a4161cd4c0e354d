import { createHash } from 'node:crypto';
import {
  isSessionOnlyPath,
  PERSONAL_TOKEN_PREFIX,
  TOKEN_REQUESTS_PER_MINUTE,
} from '@tally/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { AppError, unauthorized } from '../shared/errors.js';
import { noteUse, tokenByHash } from './queries.js';

/**
 * Personal API tokens on /api (docs/decisions/050-api-tokens-and-calendar-feed.md): the
 * authentication hook hands a bearer token that starts with `tally_pat_` to `authenticate`, which
 * looks it up by its SHA-256 and applies the token's rules. The JWT path never comes here.
 */

/** SHA-256 (hex) of a token: what api_tokens keeps instead of it. */
export const hashPersonalToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

const MINUTE = 60_000;

/** Methods a read token may use. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const SESSION_ONLY =
  'Personal API tokens cannot be used on /api/account or /api/auth: sign in to Tally to manage your account';

export type PersonalTokenRow = Awaited<ReturnType<typeof tokenByHash>>[number];

/**
 * The rules every use of a personal token follows, on /api and CalDAV alike: found by its hash,
 * refused once expired, its use noted. The answer says why not (the caller words it for its
 * protocol); `check` may refuse first, by throwing or by answering false (as if no such token).
 */
export async function usePersonalToken(
  db: Db,
  token: string,
  now: number,
  check: (row: PersonalTokenRow) => Promise<boolean> | boolean,
): Promise<{ ok: true; row: PersonalTokenRow } | { ok: false; expiredAt: number | null }> {
  const [row] = await tokenByHash(db, { hash: hashPersonalToken(token) });
  if (!row) return { ok: false, expiredAt: null };
  if (row.expires_at !== null && row.expires_at <= now) {
    return { ok: false, expiredAt: row.expires_at };
  }
  if (!(await check(row))) return { ok: false, expiredAt: null };
  if (row.last_used_at === null || now - row.last_used_at >= MINUTE) {
    await noteUse(db, { id: row.id, now, minuteAgo: now - MINUTE });
  }
  return { ok: true, row };
}

export interface TokenUser {
  id: number;
  username: string;
  /** A personal token has no session. */
  sessionId: null;
  tokenId: number;
  /** The saved filter it is limited to (GET /api/todos answers its todos only), or null. */
  filterId: number | null;
}

/**
 * Checks a personal token: found, unexpired, under its requests a minute (counted here), and
 * read-write when `write`; throws the 401, 403 or 429 that refuses it. The MCP endpoint uses it
 * for its own requests (server/src/mcp/routes.ts), the /api hook below for every /api request.
 */
export function personalTokenChecker(app: FastifyInstance, clock: Clock) {
  return async function check(
    token: string,
    write: boolean,
    /** The call is GET /api/todos, which a token limited to a saved filter may make. */
    filterAllowed = false,
  ): Promise<{ user: TokenUser; scope: PersonalTokenRow['scope'] }> {
    const used = await usePersonalToken(app.db, token, clock(), async (row) => {
      const hits = await app.counters.hit(`api-token:${row.id}`, MINUTE);
      if (hits.count > TOKEN_REQUESTS_PER_MINUTE) {
        const seconds = Math.max(1, Math.ceil(hits.ttlMs / 1000));
        throw new AppError(
          429,
          `Too many requests with this API token - try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
          { 'retry-after': String(seconds) },
        );
      }
      if (row.scope !== 'read-write' && write) {
        throw new AppError(403, READ_ONLY_TOKEN);
      }
      if (row.filter_id !== null && !filterAllowed) throw new AppError(403, FILTER_ONLY_TOKEN);
      return true;
    });
    if (!used.ok) {
      if (used.expiredAt === null) {
        throw unauthorized('This API token is not valid: it was revoked or never existed');
      }
      const day = new Date(used.expiredAt).toISOString().slice(0, 10);
      throw unauthorized(`This API token expired on ${day}: make a new one in Settings`);
    }
    const { row } = used;
    return {
      user: {
        id: row.user_id,
        username: row.username,
        sessionId: null,
        tokenId: row.id,
        filterId: row.filter_id,
      },
      scope: row.scope,
    };
  };
}

export const READ_ONLY_TOKEN = 'This API token is read-only: it cannot make changes';
const FILTER_ONLY_TOKEN =
  "This API token shows one saved filter's todos: it can only call GET /api/todos";

/** Checks a personal token for this request; throws the 401, 403 or 429 that refuses it. */
export function personalTokenAuthenticator(app: FastifyInstance, clock: Clock) {
  const check = personalTokenChecker(app, clock);
  return async function authenticate(token: string, request: FastifyRequest): Promise<TokenUser> {
    const url = request.routeOptions.url ?? request.url;
    if (isSessionOnlyPath(url)) throw new AppError(403, SESSION_ONLY);
    const listsTodos = READ_METHODS.has(request.method) && url === '/api/todos';
    return (await check(token, !READ_METHODS.has(request.method), listsTodos)).user;
  };
}

/** A request on /api/auth that carries a personal token (they sign in with passwords, cookies). */
export const personalTokenOnAuthPath = (request: FastifyRequest): boolean =>
  request.headers.authorization?.startsWith(`Bearer ${PERSONAL_TOKEN_PREFIX}`) === true &&
  (request.routeOptions.url ?? '').startsWith('/api/auth/');
