import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/schema.js';
import { AppError } from '../shared/errors.js';

const ACCOUNT_DISABLED = 'This account is disabled: ask the operator of this Tally to enable it';

/** The answer to a sign-in of an account an operator disabled (403). */
const accountDisabled = () => new AppError(403, ACCOUNT_DISABLED);

/** Whether `error` is that refusal (a redirect-based sign-in turns it into its own failure). */
export const isAccountDisabled = (error: unknown): boolean =>
  error instanceof AppError && error.statusCode === 403 && error.message === ACCOUNT_DISABLED;

/** A refresh token lives 30 days at most, and never past its session's end. */
const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Longest user agent kept with a session (what the sessions list shows). */
const USER_AGENT_MAX = 256;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

export interface StartedSession {
  sessionId: string;
  refreshToken: string;
  /** The session's absolute end (epoch ms). */
  expiresAt: number;
}

/**
 * Starts a session (docs/decisions/045-sessions.md): a row that ends `maxAgeMs` after sign-in
 * whatever happens later, and its first refresh token. Signing in proves the password (or
 * Google): the session may make sensitive changes for a few minutes (decision 071).
 */
export async function startSession(
  db: Db,
  userId: number,
  now: number,
  maxAgeMs: number,
  userAgent: string | null,
  passwordChangeRequired = false,
): Promise<StartedSession> {
  // Every way of signing in ends here: a disabled account gets no session, however it proved
  // who it is (password, second step, Google, single sign-on, passkey).
  const account = await db
    .selectFrom('users')
    .select('disabled_at')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (account?.disabled_at != null) throw accountDisabled();
  const sessionId = randomUUID();
  const expiresAt = now + maxAgeMs;
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      user_id: userId,
      created_at: now,
      last_used_at: now,
      expires_at: expiresAt,
      ended_at: null,
      user_agent: userAgent?.slice(0, USER_AGENT_MAX) || null,
      reauthenticated_at: now,
      password_change_required: passwordChangeRequired ? 1 : 0,
    })
    .execute();
  const refreshToken = await issueRefreshToken(db, userId, sessionId, now, expiresAt);
  return { sessionId, refreshToken, expiresAt };
}

/** Stores a new refresh token of the session and returns the raw token. */
async function issueRefreshToken(
  db: Db,
  userId: number,
  sessionId: string,
  now: number,
  sessionExpiresAt: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('refresh_tokens')
    .values({
      user_id: userId,
      family_id: sessionId,
      token_hash: digest(token),
      created_at: now,
      expires_at: Math.min(now + REFRESH_TOKEN_TTL_MS, sessionExpiresAt),
      used_at: null,
      revoked_at: null,
    })
    .execute();
  return token;
}

export type RotationResult =
  | {
      status: 'rotated';
      userId: number;
      sessionId: string;
      refreshToken: string;
      expiresAt: number;
      passwordChangeRequired: boolean;
    }
  | { status: 'reused'; userId: number; sessionId: string }
  | { status: 'invalid' };

/**
 * Spends a refresh token, exactly once, for the next one of its session. A token that was
 * already used or revoked means it leaked: the whole session ends, so neither the thief nor the
 * user can go on with it. An ended or expired session renews nothing, nor one left unused for
 * `idleMs` (SESSION_IDLE_DAYS): that one ends.
 */
export async function rotateRefreshToken(
  db: Db,
  token: string,
  now: number,
  idleMs: number,
): Promise<RotationResult> {
  const row = await db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.family_id')
    .select([
      'refresh_tokens.id',
      'refresh_tokens.user_id',
      'refresh_tokens.family_id',
      'refresh_tokens.expires_at',
      'refresh_tokens.used_at',
      'refresh_tokens.revoked_at',
      'sessions.expires_at as session_expires_at',
      'sessions.ended_at',
      'sessions.last_used_at',
      'sessions.password_change_required',
    ])
    .where('refresh_tokens.token_hash', '=', digest(token))
    .executeTakeFirst();
  if (!row) return { status: 'invalid' };
  const reused = { status: 'reused', userId: row.user_id, sessionId: row.family_id } as const;
  if (row.used_at !== null || row.revoked_at !== null) {
    await endSession(db, row.family_id, now);
    return reused;
  }
  if (row.expires_at <= now || row.ended_at !== null || row.session_expires_at <= now) {
    return { status: 'invalid' };
  }
  if (now - row.last_used_at >= idleMs) {
    await endSession(db, row.family_id, now);
    return { status: 'invalid' };
  }
  // The guard in WHERE makes the claim atomic across processes: only one caller wins.
  const claimed = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    await endSession(db, row.family_id, now);
    return reused;
  }
  await db
    .updateTable('sessions')
    .set({ last_used_at: now })
    .where('id', '=', row.family_id)
    .execute();
  const refreshToken = await issueRefreshToken(
    db,
    row.user_id,
    row.family_id,
    now,
    row.session_expires_at,
  );
  return {
    status: 'rotated',
    userId: row.user_id,
    sessionId: row.family_id,
    refreshToken,
    expiresAt: row.session_expires_at,
    passwordChangeRequired: row.password_change_required === 1,
  };
}

/** The session a refresh token belongs to, if the token is one of ours. */
export async function sessionOfRefreshToken(
  db: Db,
  token: string,
): Promise<{ sessionId: string; userId: number } | null> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select(['family_id', 'user_id'])
    .where('token_hash', '=', digest(token))
    .executeTakeFirst();
  return row ? { sessionId: row.family_id, userId: row.user_id } : null;
}

/**
 * Ends a session: its refresh tokens are revoked and its access tokens fail from now on (the
 * authentication hook looks the session up on every request).
 */
export async function endSession(db: Db, sessionId: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ended_at: now })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}
