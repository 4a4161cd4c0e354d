import type { AccountSession } from '@tally/contract';
import type { Kysely } from 'kysely';
import { endSessionsOf } from '../auth/end-access.js';
import { endSession } from '../auth/refresh-tokens.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { iso } from './rows.js';

export interface SessionsDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** A session not renewed for this long is over, even before its cookie comes back. */
  sessionIdleMs: number;
}

/** The account's signed-in devices: listed, and ended one by one or all but this one. */
export function createSessionService({ db, clock, sessionIdleMs }: SessionsDeps) {
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

  return { sessions, endOne, endOthers };
}
