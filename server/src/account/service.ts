import {
  type Account,
  type SignedInAccount,
  type AccountExport,
  type AccountSession,
  type ChangeEmailBody,
  type ChangePasswordBody,
  type DeleteAccountBody,
  type ReauthenticateBody,
  type Repeat,
  type TodoSorts,
  EXPORT_VERSION,
  RECENT_AUTH_MINUTES,
  type ExportDay,
  STATISTIC_EVENTS,
  type StatisticEvent,
  type TotalStatistics,
  type VerificationAccount,
} from '@tally/contract';
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { GoogleIdentity } from '../auth/google-id-token.js';
import { hashPassword, refuseWeakPassword, verifyPassword } from '../auth/passwords.js';
import { endSessionsOf, endTokensAndFeed } from '../auth/end-access.js';
import { endSession } from '../auth/refresh-tokens.js';
import type { Database } from '../db/schema.js';
import type { Counters } from '../plugins/counters.js';
import type { Clock } from '../shared/clock.js';
import { mailErrorForLog } from '../shared/mailer.js';
import { AppError, badRequest, conflict, serviceUnavailable } from '../shared/errors.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import { tagsOfUserTodos } from '../shared/tags.js';
import { consumeToken, type EmailLinks, peekToken, retireTokens } from './email-links.js';
import type { FastifyBaseLogger } from 'fastify';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Wrong passwords per account per 15 minutes on these calls before they answer 429. */
const PASSWORD_CHECKS = 10;
/**
 * Verification mails per hour, per account and per address they go to, whether asked for again
 * or sent to a new address; reset mails per account likewise.
 */
const MAILS_PER_HOUR = 3;

const tooMany = (what: string, ttlMs: number) => {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError(429, `${what} - try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, {
    'retry-after': String(seconds),
  });
};

const NO_PASSWORD =
  'Your account has no password - set one with a password-reset link (Forgot password) first';
const BAD_LINK = 'token is not valid: the link was already used, has expired or is unknown';
const GOOGLE_OFF = 'Sign-in with Google is not configured on this server';

const iso = (epochMs: number) => new Date(epochMs).toISOString();

export interface AccountServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  links: EmailLinks;
  counters: Counters;
  /** A session not renewed for this long is over, even before its cookie comes back. */
  sessionIdleMs: number;
}

/**
 * Checks a Google ID token as Continue with Google does, for the browser that sent it; null when
 * Google is not configured.
 */
export type GoogleCheck = ((token: string) => Promise<GoogleIdentity>) | null;

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

type AccountRow = {
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

const toAccount = (row: AccountRow): Account => ({
  username: row.username,
  email: row.email,
  emailVerified: row.email_verified_at !== null,
  hasPassword: row.password_hash !== null,
  googleLinked: row.google_subject !== null,
  oidcLinked: row.oidc_subject !== null,
  createdAt: iso(row.created_at),
  ...(row.password_reset_at === null ? {} : { passwordResetAt: iso(row.password_reset_at) }),
});

/** The tables that hold a user's rows, children first; the users row goes last. */
const OWNED_TABLES = [
  'api_tokens',
  'calendar_feeds',
  'inbox_addresses',
  'email_tokens',
  'passkeys',
  'webauthn_challenges',
  'oidc_flows',
  'refresh_tokens',
  'sessions',
  'statistic_events',
  'statistic_totals',
  'statistic_hours',
  'todo_completions',
  'todos',
  'todo_groups',
  // Last: deleting todos logs their deletion here (migration 0017's triggers).
  'caldav_changes',
] as const satisfies readonly (keyof Database)[];

/** Deletes the account and every row it owns, in one transaction. */
export async function deleteAccountRows(db: Kysely<Database>, userId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of OWNED_TABLES) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute();
    }
    await trx.deleteFrom('users').where('id', '=', userId).execute();
  });
}

export function createAccountService({
  db,
  clock,
  links,
  counters,
  sessionIdleMs,
}: AccountServiceDeps) {
  const accountRow = (userId: number) =>
    db.selectFrom('users').select(ACCOUNT_COLUMNS).where('id', '=', userId).executeTakeFirst();

  /**
   * Checks the account's password for a change of its settings. Counted before checking, so a
   * stolen access token cannot be used to guess the password at speed. A wrong password is a
   * 400 naming the field, not a 401: the token is fine, and the browser treats a 401 as an
   * ended session.
   */
  async function checkPassword(
    userId: number,
    hash: string,
    password: string,
    field: string,
  ): Promise<void> {
    const key = `account-password:${userId}`;
    const tries = await counters.hit(key, 15 * MINUTE);
    if (tries.count > PASSWORD_CHECKS) throw tooMany('Too many wrong passwords', tries.ttlMs);
    if (!(await verifyPassword(hash, password))) throw badRequest(`${field} is not correct`);
    await counters.reset(key);
  }

  /** A Google credential for an account call; a bad one is a 400 naming the field. */
  async function googleIdentity(
    verifyGoogle: GoogleCheck,
    token: string,
    field: string,
  ): Promise<GoogleIdentity> {
    if (!verifyGoogle) throw serviceUnavailable(GOOGLE_OFF);
    try {
      return await verifyGoogle(token);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 401) {
        throw badRequest(
          `${field} was refused: ${error.message.replace(/^Google sign-in failed: /, '')}`,
        );
      }
      throw error;
    }
  }

  /**
   * Counts a verification mail against the hourly allowance of the account and of the address it
   * goes to, before anything is written or sent: a resend and an address change draw on the same
   * allowance, so neither can fill a stranger's mailbox (a change sent 30 in half a second).
   * The address is kept as a hash, so the counters hold no addresses.
   */
  async function allowVerificationMail(userId: number, emailLower: string): Promise<void> {
    const sent = await counters.hit(`verification-mail:${userId}`, HOUR);
    if (sent.count > MAILS_PER_HOUR) throw tooMany('Too many verification e-mails', sent.ttlMs);
    const address = createHash('sha256').update(emailLower).digest('base64url');
    const received = await counters.hit(`verification-mail-to:${address}`, HOUR);
    if (received.count > MAILS_PER_HOUR) {
      throw tooMany('Too many verification e-mails to this address', received.ttlMs);
    }
  }

  /** The signed-in account, with its preferences and whether it is an operator (the admin page). */
  async function get(userId: number): Promise<SignedInAccount | null> {
    const row = await accountRow(userId);
    if (!row) return null;
    const preferences = {
      timeZone: row.time_zone,
      language: row.language,
      weekStart: row.week_start,
    };
    return { ...toAccount(row), ...preferences, operator: row.operator === 1 };
  }

  /** Null when the account is gone. */
  async function changePassword(
    user: { id: number; sessionId: string },
    body: ChangePasswordBody,
  ): Promise<{ sessionsEnded: number; apiTokens: number; calendarFeed: boolean } | null> {
    const row = await accountRow(user.id);
    if (!row) return null;
    if (row.password_hash === null) throw conflict(NO_PASSWORD);
    await refuseWeakPassword(body.newPassword, 'newPassword', row);
    await checkPassword(user.id, row.password_hash, body.currentPassword, 'currentPassword');
    const hash = await hashPassword(body.newPassword);
    const now = clock();
    return db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ password_hash: hash, password_must_change: 0 })
        .where('id', '=', user.id)
        .execute();
      // Proving the password just now is a recent proof; the one-time password is gone.
      await trx
        .updateTable('sessions')
        .set({ password_change_required: 0, reauthenticated_at: now })
        .where('id', '=', user.sessionId)
        .execute();
      // A reset link asked for before the change must not undo it.
      await retireTokens(trx, user.id, ['reset-password'], now);
      const sessionsEnded = await endSessionsOf(trx, user.id, now, user.sessionId);
      const ended = body.endApiTokensAndFeed
        ? await endTokensAndFeed(trx, user.id)
        : { apiTokens: 0, calendarFeed: false };
      return { sessionsEnded, ...ended };
    });
  }

  async function changeEmail(
    userId: number,
    body: ChangeEmailBody,
    log: FastifyBaseLogger,
  ): Promise<{ account: Account; changed: boolean } | null> {
    const row = await accountRow(userId);
    if (!row) return null;
    if (row.password_hash === null) throw conflict(NO_PASSWORD);
    await checkPassword(userId, row.password_hash, body.currentPassword, 'currentPassword');
    const email = body.email.trim();
    const emailLower = email.toLowerCase();
    if (emailLower === row.email_lower) {
      // Only the spelling changes: still the verified (or not) same address.
      await db.updateTable('users').set({ email }).where('id', '=', userId).execute();
      return { account: toAccount({ ...row, email }), changed: false };
    }
    const taken = await db
      .selectFrom('users')
      .select('id')
      .where('email_lower', '=', emailLower)
      .executeTakeFirst();
    if (taken) throw conflict('That e-mail address is already registered');
    if (links.enabled) await allowVerificationMail(userId, emailLower);
    const now = clock();
    try {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ email, email_lower: emailLower, email_verified_at: null })
          .where('id', '=', userId)
          .execute();
        // Links sent to the old address prove nothing about the new one.
        await retireTokens(trx, userId, ['verify-email', 'reset-password'], now);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('That e-mail address is already registered');
      throw error;
    }
    links.sendVerificationLater({ id: userId, username: row.username, email }, log);
    return {
      account: toAccount({ ...row, email, email_verified_at: null }),
      changed: true,
    };
  }

  async function resendVerification(userId: number, log: FastifyBaseLogger): Promise<boolean> {
    if (!links.enabled) throw serviceUnavailable('This server does not send e-mail');
    const row = await accountRow(userId);
    if (!row) return false;
    if (row.email_verified_at !== null) throw conflict('Your e-mail address is already verified');
    await allowVerificationMail(userId, row.email_lower);
    try {
      await links.sendVerification({ id: userId, username: row.username, email: row.email });
    } catch (error) {
      log.error({ err: mailErrorForLog(error), userId }, 'Sending the verification e-mail failed');
      throw serviceUnavailable('The e-mail could not be sent - try again later');
    }
    return true;
  }

  /**
   * The account and address a verification link is for, while it can still verify them;
   * changes nothing (docs/decisions/078-pre-account-takeover.md).
   */
  async function verificationAccount(token: string): Promise<VerificationAccount> {
    const link = await peekToken(db, 'verify-email', token, clock());
    const row = link
      ? await db
          .selectFrom('users')
          .select(['username', 'email'])
          .where('id', '=', link.userId)
          .where('email_lower', '=', link.emailLower)
          .executeTakeFirst()
      : undefined;
    if (!row) throw badRequest(BAD_LINK);
    return { username: row.username, email: row.email };
  }

  async function verifyEmail(token: string): Promise<{ userId: number }> {
    const now = clock();
    const outcome = await db.transaction().execute(async (trx) => {
      const spent = await consumeToken(trx, 'verify-email', token, now);
      if (!spent) return null;
      // The link proves the address it was sent to, and only while the account still has it.
      const updated = await trx
        .updateTable('users')
        .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
        .where('id', '=', spent.userId)
        .where('email_lower', '=', spent.emailLower)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? { userId: spent.userId } : null;
    });
    if (!outcome) throw badRequest(BAD_LINK);
    return outcome;
  }

  /**
   * A reset link for the account with this address, if there is one. Runs after the answer
   * (see the route), so the answer is the same, in the same time, for every address.
   */
  async function requestPasswordReset(
    emailInput: string,
    log: FastifyBaseLogger,
    ip: string,
  ): Promise<void> {
    if (!links.enabled) return;
    const row = await db
      .selectFrom('users')
      .select(['id', 'username', 'email'])
      .where('email_lower', '=', emailInput.trim().toLowerCase())
      .executeTakeFirst();
    if (!row) return;
    // Someone could fill a mailbox by asking again and again.
    const sent = await counters.hit(`reset-mail:${row.id}`, HOUR);
    if (sent.count > MAILS_PER_HOUR) return;
    log.warn(
      { security: 'password-reset-requested', userId: row.id, ip },
      'A password-reset link was asked for',
    );
    await links.sendPasswordReset(row);
  }

  /**
   * Sets the password from a reset link. Whoever had the account's access keeps none of it: every
   * session ends, every personal API token is revoked, the calendar feed is turned off (the reset
   * mail and page say so). A linked Google or OpenID Connect identity stays linked, shown in
   * Settings, if the address was verified before; if it never was, the link goes.
   */
  async function resetPassword(
    token: string,
    password: string,
  ): Promise<{
    userId: number;
    username: string;
    sessionsEnded: number;
    apiTokens: number;
    calendarFeed: boolean;
    /** The provider identities unlinked because the address was never verified before. */
    unlinked: { google: boolean; oidc: boolean };
  }> {
    // Refused before the token is spent, so the same link can try another password; what the
    // account's own names refuse is refused in the transaction, which then spends nothing.
    await refuseWeakPassword(password, 'password', null);
    // Hashed before the token is spent: the transaction stays short, and a bad token costs the
    // same time as a good one.
    const hash = await hashPassword(password);
    const now = clock();
    const outcome = await db.transaction().execute(async (trx) => {
      const spent = await consumeToken(trx, 'reset-password', token, now);
      if (!spent) return null;
      const row = await trx
        .selectFrom('users')
        .select([
          'id',
          'username',
          'email',
          'email_lower',
          'email_verified_at',
          'google_subject',
          'oidc_subject',
        ])
        .where('id', '=', spent.userId)
        .executeTakeFirst();
      if (!row) return null;
      await refuseWeakPassword(password, 'password', row);
      // Following the link proved the mailbox, if it is still the account's address.
      const verified = row.email_verified_at ?? (row.email_lower === spent.emailLower ? now : null);
      // Whoever linked a Google or OpenID Connect identity to an address never verified may not
      // be its owner, who takes the account over now: the link goes, or its maker would still
      // sign in (docs/decisions/078-pre-account-takeover.md).
      const unlink = row.email_verified_at === null;
      await trx
        .updateTable('users')
        .set({
          password_hash: hash,
          email_verified_at: verified,
          password_must_change: 0,
          password_reset_at: now,
          ...(unlink ? { google_subject: null, oidc_issuer: null, oidc_subject: null } : {}),
        })
        .where('id', '=', row.id)
        .execute();
      await retireTokens(trx, row.id, ['reset-password'], now);
      const sessionsEnded = await endSessionsOf(trx, row.id, now, null);
      const ended = await endTokensAndFeed(trx, row.id);
      const unlinked = {
        google: unlink && row.google_subject !== null,
        oidc: unlink && row.oidc_subject !== null,
      };
      return { userId: row.id, username: row.username, sessionsEnded, unlinked, ...ended };
    });
    if (!outcome) throw badRequest(BAD_LINK);
    return outcome;
  }

  async function linkGoogle(
    userId: number,
    token: string,
    verifyGoogle: GoogleCheck,
  ): Promise<Account | null> {
    const identity = await googleIdentity(verifyGoogle, token, 'token');
    const row = await accountRow(userId);
    if (!row) return null;
    if (row.google_subject !== null && row.google_subject !== identity.subject) {
      throw conflict('Your account is already linked to another Google account - unlink it first');
    }
    const otherAccount = conflict('That Google account is already linked to another Tally account');
    const other = await db
      .selectFrom('users')
      .select('id')
      .where('google_subject', '=', identity.subject)
      .where('id', '<>', userId)
      .executeTakeFirst();
    if (other) throw otherAccount;
    // Google vouches for its own verified address; it proves the account's only if they match.
    const verified =
      row.email_verified_at ??
      (identity.email.trim().toLowerCase() === row.email_lower ? clock() : null);
    try {
      await db
        .updateTable('users')
        .set({ google_subject: identity.subject, email_verified_at: verified })
        .where('id', '=', userId)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw otherAccount;
      throw error;
    }
    return toAccount({ ...row, google_subject: identity.subject, email_verified_at: verified });
  }

  /** Null when the account is gone; false when nothing was linked. */
  async function unlinkGoogle(userId: number): Promise<boolean | null> {
    const row = await accountRow(userId);
    if (!row) return null;
    // Signing in stays possible with a password or a linked OpenID Connect account.
    if (row.password_hash === null && row.oidc_subject === null) {
      throw conflict('Set a password before unlinking Google - without one you could not sign in');
    }
    if (row.google_subject === null) return false;
    await db.updateTable('users').set({ google_subject: null }).where('id', '=', userId).execute();
    return true;
  }

  async function sessions(userId: number, currentSessionId: string): Promise<AccountSession[]> {
    const now = clock();
    const rows = await db
      .selectFrom('sessions')
      .select(['id', 'created_at', 'last_used_at', 'user_agent'])
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      // Idle too long: its refresh cookie no longer works (SESSION_IDLE_DAYS).
      .where('last_used_at', '>', now - sessionIdleMs)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      createdAt: iso(row.created_at),
      lastUsedAt: iso(row.last_used_at),
      userAgent: row.user_agent,
      current: row.id === currentSessionId,
    }));
  }

  /** False when the session is not the caller's, or has ended already. */
  async function endOne(userId: number, sessionId: string): Promise<boolean> {
    const now = clock();
    const open = await db
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!open) return false;
    await db.transaction().execute((trx) => endSession(trx, sessionId, now));
    return true;
  }

  async function endOthers(userId: number, currentSessionId: string): Promise<number> {
    const now = clock();
    return db.transaction().execute((trx) => endSessionsOf(trx, userId, now, currentSessionId));
  }

  async function exportAll(userId: number): Promise<AccountExport | null> {
    const now = clock();
    const row = await accountRow(userId);
    if (!row) return null;
    const [groups, todos, completions, totals, daily, tags, tagsOf, sorts, filters] =
      await Promise.all([
        db
          .selectFrom('todo_groups')
          .select(['id', 'name', 'color', 'created_at'])
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        db
          .selectFrom('todos')
          .select([
            'id',
            'title',
            'description',
            'group_id',
            'completed',
            'due_date',
            'due_time',
            'repeat',
            'created_at',
            'updated_at',
            'priority',
            'parent_id',
            'start_date',
            'position',
          ])
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        db
          .selectFrom('todo_completions')
          .select(['todo_id', 'group_id', 'created_at', 'completed_at', 'due_date', 'on_time'])
          .where('user_id', '=', userId)
          .orderBy('completed_at')
          .orderBy('id')
          .execute(),
        db
          .selectFrom('statistic_totals')
          .select(['type', 'count'])
          .where('user_id', '=', userId)
          .execute(),
        // The event log by UTC day: epoch ms divided by a day is an integer division on both.
        db
          .selectFrom('statistic_events')
          .select((eb) => [
            sql<number | string>`occurred_at / ${sql.lit(DAY)}`.as('day'),
            'type',
            eb.fn.countAll<number | string>().as('n'),
          ])
          .where('user_id', '=', userId)
          .groupBy([sql`occurred_at / ${sql.lit(DAY)}`, 'type'])
          .execute(),
        db
          .selectFrom('tags')
          .select(['id', 'name', 'color', 'created_at'])
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        tagsOfUserTodos(db, userId),
        db.selectFrom('users').select('todo_sorts').where('id', '=', userId).executeTakeFirst(),
        db
          .selectFrom('saved_filters')
          .select(['name', 'color', 'query', 'position'])
          .where('user_id', '=', userId)
          .orderBy('position')
          .orderBy('id')
          .execute(),
      ]);
    const zeroes = () =>
      Object.fromEntries(STATISTIC_EVENTS.map((event) => [event, 0])) as TotalStatistics;
    const isEvent = (type: string): type is StatisticEvent =>
      (STATISTIC_EVENTS as readonly string[]).includes(type);
    const totalCounts = zeroes();
    for (const total of totals)
      if (isEvent(total.type)) totalCounts[total.type] = Number(total.count);
    const days = new Map<number, ExportDay>();
    for (const entry of daily) {
      if (!isEvent(entry.type)) continue;
      const day = Number(entry.day);
      const record = days.get(day) ?? { date: iso(day * DAY).slice(0, 10), ...zeroes() };
      record[entry.type] = Number(entry.n);
      days.set(day, record);
    }
    return {
      version: EXPORT_VERSION,
      exportedAt: iso(now),
      account: toAccount(row),
      tags: tags.map((tag) => ({
        name: tag.name,
        color: tag.color,
        createdAt: iso(tag.created_at),
      })),
      groups: groups.map((g) => ({
        id: g.id,
        name: g.name,
        color: g.color,
        createdAt: iso(g.created_at),
      })),
      todos: todos.map((t) => ({
        id: t.id,
        title: t.title,
        description: t.description,
        groupId: t.group_id,
        completed: t.completed === 1,
        dueDate: t.due_date,
        dueTime: t.due_time,
        // Stored as the contract's RepeatSchema in JSON, written only by the todos service.
        repeat: t.repeat === null ? null : (JSON.parse(t.repeat) as Repeat),
        createdAt: iso(t.created_at),
        updatedAt: iso(t.updated_at),
        tags: tagsOf.get(t.id) ?? [],
        priority: t.priority,
        parentId: t.parent_id,
        startDate: t.start_date,
        position: t.position,
      })),
      todoSorts: sorts?.todo_sorts ? (JSON.parse(sorts.todo_sorts) as TodoSorts) : {},
      filters,
      completions: completions.map((c) => ({
        todoId: c.todo_id,
        groupId: c.group_id,
        createdAt: iso(c.created_at),
        completedAt: iso(c.completed_at),
        dueDate: c.due_date,
        onTime: c.on_time === null ? null : c.on_time === 1,
      })),
      statistics: {
        totals: totalCounts,
        daily: [...days.entries()].sort(([a], [b]) => a - b).map(([, record]) => record),
      },
    };
  }

  /**
   * Checks a proof of identity: the password, or for an account without one a fresh Google
   * credential of its own Google account. Each problem is a 400 naming the field.
   */
  async function checkProof(
    userId: number,
    row: AccountRow,
    proof: DeleteAccountBody | ReauthenticateBody,
    verifyGoogle: GoogleCheck,
    missing: { password: string; googleToken: string },
  ): Promise<void> {
    if (proof.password !== undefined && proof.googleToken !== undefined) {
      throw badRequest('Send either password or googleToken, not both');
    }
    if (row.password_hash !== null) {
      if (proof.password === undefined) throw badRequest(missing.password);
      await checkPassword(userId, row.password_hash, proof.password, 'password');
    } else {
      if (proof.googleToken === undefined) {
        throw badRequest(missing.googleToken);
      }
      const identity = await googleIdentity(verifyGoogle, proof.googleToken, 'googleToken');
      if (identity.subject !== row.google_subject) {
        throw badRequest('googleToken is not from the Google account linked to this account');
      }
    }
  }

  /** Deletes the account and every row it owns in one transaction, after checking the proof. */
  async function remove(
    userId: number,
    proof: DeleteAccountBody,
    verifyGoogle: GoogleCheck,
    sessionId: string | null = null,
  ): Promise<boolean> {
    const row = await accountRow(userId);
    if (!row) return false;
    if (row.password_hash === null && row.google_subject === null && row.oidc_subject !== null) {
      // Only the OpenID provider signs this account in: its proof is a fresh sign-in there
      // (POST /api/account/reauthenticate/oidc), noted on the session, as for recentAuth routes.
      await requireRecentSession(userId, sessionId);
      await deleteAccountRows(db, userId);
      return true;
    }
    await checkProof(userId, row, proof, verifyGoogle, {
      password: 'password is required to delete the account',
      googleToken: 'googleToken is required to delete an account without a password',
    });
    await deleteAccountRows(db, userId);
    return true;
  }

  /** 403 reauthentication_required unless the session proved itself in RECENT_AUTH_MINUTES. */
  async function requireRecentSession(userId: number, sessionId: string | null): Promise<void> {
    const session =
      sessionId === null
        ? undefined
        : await db
            .selectFrom('sessions')
            .select('reauthenticated_at')
            .where('id', '=', sessionId)
            .where('user_id', '=', userId)
            .executeTakeFirst();
    const at = session?.reauthenticated_at ?? null;
    if (at === null || clock() - at > RECENT_AUTH_MINUTES * MINUTE) {
      throw new AppError(
        403,
        `Confirm it's you: sign in with your single sign-on provider again (the last ${RECENT_AUTH_MINUTES} minutes count)`,
        {},
        'reauthentication_required',
      );
    }
  }

  /**
   * Notes a fresh proof on the caller's session (decision 071): sensitive changes are allowed
   * for RECENT_AUTH_MINUTES. False when the account is gone.
   */
  async function reauthenticate(
    user: { id: number; sessionId: string },
    proof: ReauthenticateBody,
    verifyGoogle: GoogleCheck,
  ): Promise<boolean> {
    const row = await accountRow(user.id);
    if (!row) return false;
    await checkProof(user.id, row, proof, verifyGoogle, {
      password: 'password is required to confirm it is you',
      googleToken: 'googleToken is required: the account has no password',
    });
    await db
      .updateTable('sessions')
      .set({ reauthenticated_at: clock() })
      .where('id', '=', user.sessionId)
      .where('user_id', '=', user.id)
      .execute();
    return true;
  }

  return {
    get,
    changePassword,
    changeEmail,
    resendVerification,
    verificationAccount,
    verifyEmail,
    requestPasswordReset,
    resetPassword,
    linkGoogle,
    unlinkGoogle,
    sessions,
    endOne,
    endOthers,
    exportAll,
    remove,
    reauthenticate,
  };
}
