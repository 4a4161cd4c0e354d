import type { Account, SignedInAccount } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { AppError } from '../shared/errors.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/**
 * Verification mails per hour, per account and per address they go to, whether asked for again
 * or sent to a new address; reset mails per account likewise.
 */
export const MAILS_PER_HOUR = 3;

export const NO_PASSWORD =
  'Your account has no password - set one with a password-reset link (Forgot password) first';
export const BAD_LINK = 'token is not valid: the link was already used, has expired or is unknown';

export const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** A 429 that says when to try again, in minutes and in Retry-After. */
export const tooMany = (what: string, ttlMs: number) => {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError(429, `${what} - try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, {
    'retry-after': String(seconds),
  });
};

const ACCOUNT_COLUMNS = [
  'id',
  'username',
  'email',
  'email_lower',
  'password_hash',
  'google_subject',
  'oidc_subject',
  'email_verified_at',
  'created_at',
  'password_reset_at',
  'operator',
  'time_zone',
  'language',
  'week_start',
] as const;

export type AccountRow = {
  username: string;
  email: string;
  password_hash: string | null;
  google_subject: string | null;
  oidc_subject: string | null;
  email_verified_at: number | null;
  created_at: number;
  password_reset_at: number | null;
  operator: number;
  time_zone: string | null;
  language: string | null;
  week_start: number | null;
};

/** The users row every account concern reads; undefined when the account is gone. */
export const accountRow = (db: Kysely<Database>, userId: number) =>
  db.selectFrom('users').select(ACCOUNT_COLUMNS).where('id', '=', userId).executeTakeFirst();

export const toAccount = (row: AccountRow): Account => ({
  username: row.username,
  email: row.email,
  emailVerified: row.email_verified_at !== null,
  hasPassword: row.password_hash !== null,
  googleLinked: row.google_subject !== null,
  oidcLinked: row.oidc_subject !== null,
  createdAt: iso(row.created_at),
  ...(row.password_reset_at === null ? {} : { passwordResetAt: iso(row.password_reset_at) }),
});

/**
 * The signed-in account, with its preferences and whether it is an operator (the admin page);
 * null when gone.
 */
export async function signedInAccount(
  db: Kysely<Database>,
  userId: number,
): Promise<SignedInAccount | null> {
  const row = await accountRow(db, userId);
  if (!row) return null;
  const preferences = {
    timeZone: row.time_zone,
    language: row.language,
    weekStart: row.week_start,
  };
  return { ...toAccount(row), ...preferences, operator: row.operator === 1 };
}
