import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  RECOVERY_CODE_COUNT,
  type MfaMethod,
  type TwoFactorConfirmBody,
  type TwoFactorDisableBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@tally/contract';
import { sql, type Kysely } from 'kysely';
import { endOtherAccess, type EndedAccess } from '../auth/end-access.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { AppError, badRequest, conflict, unauthorized } from '../shared/errors.js';
import { onFirstUse } from '../shared/on-first-use.js';
import type { SecretBox } from './secret-box.js';

const MINUTE = 60_000;
/** RFC 6238's defaults, the ones every authenticator app supports. */
const PERIOD_S = 30;
const DIGITS = 6;
/** A code of the step before or after is accepted too: phones' clocks drift. */
const WINDOW = 1;
/** The second step of a sign-in lives this long. */
export const CHALLENGE_MS = 5 * MINUTE;
/** Wrong codes one mfaToken may take before the password must be given again. */
const CHALLENGE_ATTEMPTS = 5;
/** Wrong codes per account per 15 minutes, from browsers that never signed in to it. */
const ACCOUNT_FAILURES = 10;
const FAILURE_WINDOW_MS = 15 * MINUTE;

/** Loaded at the first setup or code, and the QR code's drawing at the first setup only. */
const loadOtpauth = onFirstUse(() => import('otpauth'));
const loadQrCode = onFirstUse(() => import('qrcode'));
/** Crockford's base32 (no i, l, o, u): 10 characters are 50 bits, easy to copy by hand. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** What a recovery code looks like once normalized: anything else is not tried against them. */
const RECOVERY_SHAPE = /^[0-9a-hjkmnp-tv-z]{10}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** How a code is compared: spaces and dashes ignored, any case. */
const normalized = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

const sameHash = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

function recoveryCode(): string {
  const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const tooMany = (ttlMs: number) => {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new AppError(429, `Too many wrong codes - try again in ${seconds} seconds`, {
    'retry-after': String(seconds),
  });
};

/** Which sign-in a second step continues: it decides the session's events (auth/sign-in.ts). */
export type SignInKind = 'password' | 'google' | 'oidc';

export interface TwoFactorDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  /** The name the authenticator app shows beside the account (the PUBLIC_URL's host). */
  issuer: string;
}

/**
 * Two-factor codes (docs/decisions/081-two-factor-codes.md). Every piece of state is a row
 * (the secret, the last accepted time step, the recovery codes, the wrong-code count, the
 * sign-ins waiting for a code), and every "only once" is a conditional UPDATE or DELETE, so any
 * number of processes behind one PostgreSQL database agree.
 */
export function createTwoFactorService({ db, clock, box, issuer }: TwoFactorDeps) {
  const totpOf = async (secret: string, label: string) => {
    const { Secret, TOTP } = await loadOtpauth();
    return new TOTP({
      issuer,
      label,
      algorithm: 'SHA1',
      digits: DIGITS,
      period: PERIOD_S,
      secret: Secret.fromBase32(secret),
    });
  };

  const rowOf = (userId: number) =>
    db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();

  async function isEnabled(userId: number): Promise<boolean> {
    const row = await rowOf(userId);
    return Boolean(row?.enabled_at);
  }

  async function recoveryCodesLeft(userId: number): Promise<number> {
    const { count } = await db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  async function methodsOf(userId: number): Promise<MfaMethod[]> {
    const methods: MfaMethod[] = ['totp'];
    if ((await recoveryCodesLeft(userId)) > 0) methods.push('recovery');
    const passkey = await db
      .selectFrom('passkeys')
      .select('id')
      .where('user_id', '=', userId)
      .limit(1)
      .executeTakeFirst();
    if (passkey) methods.push('passkey');
    return methods;
  }

  async function status(userId: number): Promise<TwoFactorStatus> {
    const row = await rowOf(userId);
    const enabledAt = row?.enabled_at ?? null;
    return {
      enabled: enabledAt !== null,
      enabledAt: enabledAt === null ? null : new Date(enabledAt).toISOString(),
      recoveryCodesLeft: enabledAt === null ? 0 : await recoveryCodesLeft(userId),
    };
  }

  /** A new secret waiting for its first code; replaces an unfinished one. */
  async function setup(userId: number, username: string): Promise<TwoFactorSetup> {
    const { Secret } = await loadOtpauth();
    const secret = new Secret({ size: 20 }).base32;
    const now = clock();
    const started = await db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('two_factor')
        .select('enabled_at')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (existing?.enabled_at) return false;
      await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
      await trx
        .insertInto('two_factor')
        .values({ user_id: userId, secret: box.seal(secret), created_at: now })
        .execute();
      return true;
    });
    if (!started) throw conflict('Two-factor codes are already on');
    const otpauthUri = (await totpOf(secret, username)).toString();
    const { default: QRCode } = await loadQrCode();
    const svg = await QRCode.toString(otpauthUri, { type: 'svg', margin: 2 });
    return {
      secret,
      otpauthUri,
      qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    };
  }

  /**
   * Whether the code is the app's current one (or the step's neighbour) and newer than the last
   * accepted: the step is recorded by a conditional UPDATE, so a code works once even when two
   * requests race with it.
   */
  async function acceptTotp(userId: number, sealed: string, code: string): Promise<boolean> {
    const token = normalized(code);
    if (!/^\d{6}$/.test(token)) return false;
    const now = clock();
    const { TOTP } = await loadOtpauth();
    const totp = await totpOf(box.open(sealed), '');
    const delta = totp.validate({ token, timestamp: now, window: WINDOW });
    if (delta === null) return false;
    const step = TOTP.counter({ period: PERIOD_S, timestamp: now }) + delta;
    const taken = await db
      .updateTable('two_factor')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  /**
   * Spends a recovery code: each one works once. The codes have 50 bits, so they are stored as
   * argon2id hashes like passwords (ASVS 5.0 6.5.2), and the input is checked against each unused
   * one; the UPDATE on the matching row's id decides a race between two requests.
   */
  async function acceptRecoveryCode(userId: number, code: string): Promise<boolean> {
    const typed = normalized(code);
    if (!RECOVERY_SHAPE.test(typed)) return false;
    const unused = await db
      .selectFrom('recovery_codes')
      .select(['id', 'code_hash'])
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
    const checks = await Promise.all(unused.map((row) => verifyPassword(row.code_hash, typed)));
    const match = unused.find((_, index) => checks[index]);
    if (!match) return false;
    const used = await db
      .updateTable('recovery_codes')
      .set({ used_at: clock() })
      .where('id', '=', match.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }

  /** Which kind of code this was, or null when it is not a valid one (now). */
  async function acceptCode(userId: number, code: string): Promise<MfaMethod | null> {
    const row = await rowOf(userId);
    if (!row?.enabled_at) return null;
    if (await acceptTotp(userId, row.secret, code)) return 'totp';
    return (await acceptRecoveryCode(userId, code)) ? 'recovery' : null;
  }

  /**
   * The per-account limit on wrong codes (any call that takes one). A browser that signed in to
   * the account before (`trusted`) is not held to it, so whoever knows the password cannot lock
   * the owner out by guessing codes (the same rule as decision 072 for passwords).
   */
  async function admitGuess(userId: number, trusted: boolean): Promise<void> {
    if (trusted) return;
    const row = await db
      .selectFrom('two_factor')
      .select(['failures', 'failures_since'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row?.failures_since) return;
    const ends = row.failures_since + FAILURE_WINDOW_MS;
    if (row.failures >= ACCOUNT_FAILURES && ends > clock()) throw tooMany(ends - clock());
  }

  /** Counts a wrong code, in one statement (a fresh window when the last one is over). */
  async function recordFailure(userId: number): Promise<void> {
    const stale = clock() - FAILURE_WINDOW_MS;
    const fresh = sql<boolean>`failures_since is null or failures_since <= ${stale}`;
    await db
      .updateTable('two_factor')
      .set({
        failures: sql`case when ${fresh} then 1 else failures + 1 end`,
        failures_since: sql`case when ${fresh} then ${clock()} else failures_since end`,
      })
      .where('user_id', '=', userId)
      .execute();
  }

  const forgetFailures = (userId: number) =>
    db
      .updateTable('two_factor')
      .set({ failures: 0, failures_since: null })
      .where('user_id', '=', userId)
      .execute();

  /**
   * Turns the codes on with the app's first code, ending what the body asks besides (every
   * session but `keep`, the API tokens and feed); answers the recovery codes (shown once).
   */
  async function enable(
    userId: number,
    keep: string | null,
    body: TwoFactorConfirmBody,
  ): Promise<{ recoveryCodes: string[]; ended: EndedAccess }> {
    const { code } = body;
    const row = await rowOf(userId);
    if (!row) throw conflict('Start the setup first: there is no secret to confirm');
    if (row.enabled_at) throw conflict('Two-factor codes are already on');
    await admitGuess(userId, false);
    if (!(await acceptTotp(userId, row.secret, code))) {
      await recordFailure(userId);
      throw badRequest('code is not correct - check the time on your phone and try again');
    }
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
    const hashes = await Promise.all(codes.map((c) => hashPassword(normalized(c))));
    const now = clock();
    const ended = await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('two_factor')
        .set({ enabled_at: now, failures: 0, failures_since: null })
        .where('user_id', '=', userId)
        .execute();
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('recovery_codes')
        .values(hashes.map((hash) => ({ user_id: userId, code_hash: hash })))
        .execute();
      return endOtherAccess(trx, userId, keep, body, now);
    });
    return { recoveryCodes: codes, ended };
  }

  /**
   * Turns the codes off with a current code (or a recovery code) or the password, ending what
   * the body asks besides, as enable does.
   */
  async function disable(
    userId: number,
    keep: string | null,
    body: TwoFactorDisableBody,
  ): Promise<EndedAccess> {
    if ((body.code === undefined) === (body.password === undefined)) {
      throw badRequest('Send either code or password');
    }
    const row = await rowOf(userId);
    if (!row?.enabled_at) throw conflict('Two-factor codes are not on');
    await admitGuess(userId, false);
    if (body.code !== undefined) {
      if (!(await acceptCode(userId, body.code))) {
        await recordFailure(userId);
        throw badRequest('code is not correct');
      }
    } else {
      const user = await db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      if (user.password_hash === null) {
        throw conflict('This account has no password - use a code from your app');
      }
      if (!(await verifyPassword(user.password_hash, body.password ?? ''))) {
        await recordFailure(userId);
        throw badRequest('password is not correct');
      }
    }
    return db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
      await trx.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
      return endOtherAccess(trx, userId, keep, body, clock());
    });
  }

  /**
   * A sign-in waiting for its code: the mfaToken for the answer, and the secret of the cookie
   * that binds it to the browser. Only hashes are stored.
   */
  async function startChallenge(
    userId: number,
    kind: SignInKind,
  ): Promise<{ mfaToken: string; browserSecret: string; methods: MfaMethod[] }> {
    const mfaToken = randomBytes(32).toString('base64url');
    const browserSecret = randomBytes(32).toString('base64url');
    const now = clock();
    // Expired challenges go as new ones come: no job needed, and the index keeps it cheap.
    await db.deleteFrom('mfa_challenges').where('expires_at', '<=', now).execute();
    await db
      .insertInto('mfa_challenges')
      .values({
        token_hash: sha256(mfaToken),
        user_id: userId,
        browser_hash: sha256(browserSecret),
        kind,
        expires_at: now + CHALLENGE_MS,
      })
      .execute();
    return { mfaToken, browserSecret, methods: await methodsOf(userId) };
  }

  /**
   * Checks a code for a waiting sign-in; on success the challenge is spent (one session) and
   * its account and kind are answered. `trusted` says whether the browser signed in to that
   * account before (auth/sign-in.ts).
   */
  async function completeChallenge(
    mfaToken: string,
    browserSecret: string | undefined,
    code: string,
    trusted: (userId: number) => Promise<boolean>,
  ): Promise<{ userId: number; kind: SignInKind; method: MfaMethod }> {
    const tokenHash = sha256(mfaToken);
    const challenge = await db
      .selectFrom('mfa_challenges')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!challenge || challenge.expires_at <= clock()) {
      throw unauthorized('This sign-in has expired - please sign in again');
    }
    if (browserSecret === undefined || !sameHash(sha256(browserSecret), challenge.browser_hash)) {
      throw unauthorized('This sign-in was started in another browser - please sign in again');
    }
    const userId = challenge.user_id;
    await admitGuess(userId, await trusted(userId));
    const counted = await db
      .updateTable('mfa_challenges')
      .set({ attempts: sql`attempts + 1` })
      .where('token_hash', '=', tokenHash)
      .where('attempts', '<', CHALLENGE_ATTEMPTS)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) {
      await db.deleteFrom('mfa_challenges').where('token_hash', '=', tokenHash).execute();
      throw unauthorized('Too many wrong codes - please sign in again');
    }
    const method = await acceptCode(userId, code);
    if (!method) {
      await recordFailure(userId);
      throw unauthorized('The code is not correct');
    }
    const spent = await db
      .deleteFrom('mfa_challenges')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (Number(spent.numDeletedRows) !== 1) {
      throw unauthorized('This sign-in has expired - please sign in again');
    }
    await forgetFailures(userId);
    return { userId, kind: challenge.kind as SignInKind, method };
  }

  return { isEnabled, status, setup, enable, disable, startChallenge, completeChallenge };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
