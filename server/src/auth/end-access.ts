// Ending what else signs in to an account: its sessions, its personal API tokens and its
// calendar feed. A password reset ends them all; a password change, and a change of two-factor
// codes or passkeys, end what the person chooses (decisions 071 and 110).
import type { EndOtherAccess } from '@tally/contract';
import type { Db } from '../db/schema.js';
import { endSession } from './refresh-tokens.js';

/** Ends every open session of the account but `keep`; answers how many ended. */
export async function endSessionsOf(
  db: Db,
  userId: number,
  now: number,
  keep: string | null,
): Promise<number> {
  let open = db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null);
  if (keep !== null) open = open.where('id', '<>', keep);
  const sessions = await open.execute();
  for (const session of sessions) await endSession(db, session.id, now);
  return sessions.length;
}

/**
 * Revokes every personal API token of the account and turns its calendar feed off: what a
 * password reset does, and a password change when asked (decision 071). Answers what ended.
 */
export async function endTokensAndFeed(
  db: Db,
  userId: number,
): Promise<{ apiTokens: number; calendarFeed: boolean }> {
  const tokens = await db.deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst();
  const feed = await db
    .deleteFrom('calendar_feeds')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    apiTokens: Number(tokens.numDeletedRows),
    calendarFeed: Number(feed.numDeletedRows) > 0,
  };
}

/** What endOtherAccess ended, for the security log. */
export interface EndedAccess {
  sessionsEnded: number;
  apiTokens: number;
  calendarFeed: boolean;
}

/**
 * After a change of a way to sign in (two-factor codes, a passkey), ends what the person chose
 * to end with it, in the change's transaction (ASVS 7.4.3): every session but `keep`, and every
 * personal API token with the calendar feed, as a password change does.
 */
export async function endOtherAccess(
  db: Db,
  userId: number,
  keep: string | null,
  choice: EndOtherAccess,
  now: number,
): Promise<EndedAccess> {
  const sessionsEnded = choice.endOtherSessions ? await endSessionsOf(db, userId, now, keep) : 0;
  const ended = choice.endApiTokensAndFeed
    ? await endTokensAndFeed(db, userId)
    : { apiTokens: 0, calendarFeed: false };
  return { sessionsEnded, ...ended };
}
