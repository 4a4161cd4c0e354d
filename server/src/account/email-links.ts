import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { directed, textsFor, type ServerTexts } from '../shared/languages/index.js';
import { type Mail, type Mailer, mailErrorForLog } from '../shared/mailer.js';
import { userPreferences } from './preferences.js';

/** How long a link works (docs/product.md, Accounts). */
const VERIFY_EMAIL_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const RESET_PASSWORD_TTL_MS = 60 * 60 * 1000;

export type LinkPurpose = 'verify-email' | 'reset-password';

const TTL: Record<LinkPurpose, number> = {
  'verify-email': VERIFY_EMAIL_TTL_MS,
  'reset-password': RESET_PASSWORD_TTL_MS,
};

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** The account a link goes to. */
export interface Recipient {
  id: number;
  username: string;
  email: string;
}

/** Stores a new single-use token for `recipient`'s address (only its hash) and returns it. */
export async function issueToken(
  db: Db,
  recipient: Recipient,
  purpose: LinkPurpose,
  now: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('email_tokens')
    .values({
      user_id: recipient.id,
      purpose,
      token_hash: digest(token),
      email_lower: recipient.email.toLowerCase(),
      created_at: now,
      expires_at: now + TTL[purpose],
      used_at: null,
    })
    .execute();
  return token;
}

/** Whose a usable token is, without spending it (the verification page asks before it verifies). */
export async function peekToken(
  db: Db,
  purpose: LinkPurpose,
  token: string,
  now: number,
): Promise<{ userId: number; emailLower: string } | null> {
  const row = await db
    .selectFrom('email_tokens')
    .select(['user_id', 'email_lower'])
    .where('token_hash', '=', digest(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? { userId: row.user_id, emailLower: row.email_lower } : null;
}

/**
 * Spends a token, exactly once: the guard in WHERE makes two parallel uses end with one winner.
 * Null for a used, expired or unknown token.
 */
export async function consumeToken(
  db: Db,
  purpose: LinkPurpose,
  token: string,
  now: number,
): Promise<{ userId: number; emailLower: string } | null> {
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', digest(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email_lower'])
    .executeTakeFirst();
  return row ? { userId: row.user_id, emailLower: row.email_lower } : null;
}

/** Spends every outstanding token of the account's (a new address, a new password). */
export async function retireTokens(
  db: Db,
  userId: number,
  purposes: LinkPurpose[],
  now: number,
): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();
}

/**
 * Deletes the tokens that can no longer be used (spent, or expired): they only answered "the
 * link was already used, has expired or is unknown", which an unknown token answers the same.
 * Run by the periodic sweep (routes.ts); returns how many went.
 */
export async function sweepTokens(db: Db, now: number): Promise<number> {
  const result = await db
    .deleteFrom('email_tokens')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The same words as plain text and as HTML, with the link in both. */
function message(
  texts: ServerTexts,
  to: string,
  subject: string,
  paragraphs: { before: string[]; link: string; after: string[] },
): Mail {
  const { before, link, after } = paragraphs;
  const html = (lines: string[]) => lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');
  return {
    to,
    subject,
    text: [...before, link, ...after].join('\n\n') + '\n',
    html: directed(
      texts,
      [
        html(before),
        `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        html(after),
      ].join('\n'),
    ),
  };
}

export interface EmailLinksOptions {
  db: Kysely<Database>;
  /** Null when the server sends no e-mail (no SMTP_URL). */
  mailer: Mailer | null;
  /** The origin written into links (PUBLIC_URL). */
  publicUrl: string;
  clock: Clock;
}

/**
 * The e-mailed links of accounts: verification and password reset. Sends that nobody waits for
 * (at registration, after an address change, a reset request) run after the answer, and the
 * server waits for them before it closes (`drain`).
 */
export function createEmailLinks({ db, mailer, publicUrl, clock }: EmailLinksOptions) {
  const pending = new Set<Promise<void>>();

  // The token rides in the fragment, which browsers never send: no request log or proxy sees it.
  const verificationMail = (texts: ServerTexts, recipient: Recipient, token: string) =>
    message(texts, recipient.email, texts.verifyEmail.subject, {
      before: [texts.hello(recipient.username), texts.verifyEmail.intro(recipient.email)],
      link: `${publicUrl}/verify-email#token=${token}`,
      after: [texts.verifyEmail.validity, texts.verifyEmail.ignore],
    });

  const resetMail = (texts: ServerTexts, recipient: Recipient, token: string) =>
    message(texts, recipient.email, texts.resetPassword.subject, {
      before: [texts.hello(recipient.username), texts.resetPassword.intro],
      link: `${publicUrl}/reset-password#token=${token}`,
      after: [texts.resetPassword.validity, texts.resetPassword.ignore],
    });

  async function send(recipient: Recipient, purpose: LinkPurpose): Promise<void> {
    if (!mailer) return;
    const token = await issueToken(db, recipient, purpose, clock());
    // In the account's language (decision 179), read when the mail goes.
    const texts = textsFor((await userPreferences(db, recipient.id)).language);
    await mailer.send(
      purpose === 'verify-email'
        ? verificationMail(texts, recipient, token)
        : resetMail(texts, recipient, token),
    );
  }

  /** Runs `work` after the current request is answered; a failure is logged, never thrown. */
  function later(log: FastifyBaseLogger, what: string, work: () => Promise<void>): void {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => log.error({ err: mailErrorForLog(error) }, `${what} failed`))
      .finally(() => pending.delete(task));
    pending.add(task);
  }

  return {
    /** Whether e-mail is configured at all. */
    enabled: mailer !== null,
    /** Sends a verification link now; rejects when the mail cannot be sent. */
    sendVerification: (recipient: Recipient) => send(recipient, 'verify-email'),
    /** Sends a verification link after the answer (registration, a new address). */
    sendVerificationLater(recipient: Recipient, log: FastifyBaseLogger): void {
      if (!mailer) return;
      later(log, 'Sending the verification e-mail', () => send(recipient, 'verify-email'));
    },
    sendPasswordReset: (recipient: Recipient) => send(recipient, 'reset-password'),
    later,
    /** Waits for the sends under way (at shutdown). */
    async drain(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

export type EmailLinks = ReturnType<typeof createEmailLinks>;
