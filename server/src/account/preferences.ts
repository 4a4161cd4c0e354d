import type { Preferences, SetPreferencesBody } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { badRequest } from '../shared/errors.js';

/** The account's preferences as the server applies them: dates are read in UTC until a zone is set. */
export interface AppliedPreferences {
  timeZone: string;
  language: string | null;
  weekStart: number | null;
}

const COLUMNS = ['time_zone', 'language', 'week_start'] as const;

/** Null when the account is gone. */
async function readPreferences(
  db: Kysely<Database>,
  userId: number,
): Promise<Preferences | null> {
  const row = await db
    .selectFrom('users')
    .select(COLUMNS)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row
    ? { timeZone: row.time_zone, language: row.language, weekStart: row.week_start }
    : null;
}

/** What background work (reminders, e-mails, CalDAV, filters) reads the account's dates with. */
export async function userPreferences(
  db: Kysely<Database>,
  userId: number,
): Promise<AppliedPreferences> {
  const stored = await readPreferences(db, userId);
  return {
    timeZone: stored?.timeZone ?? 'UTC',
    language: stored?.language ?? null,
    weekStart: stored?.weekStart ?? null,
  };
}

/**
 * The browser's zone becomes the account's when it has none, at sign-in and at each session
 * refresh, so background work (reminders, e-mails, CalDAV) reads dates as the person does without
 * asking them to choose. A zone chosen in Settings is never overwritten.
 */
export async function adoptTimeZone(
  db: Kysely<Database>,
  userId: number,
  zone: string | null,
): Promise<void> {
  if (zone === null) return;
  await db
    .updateTable('users')
    .set({ time_zone: zone })
    .where('id', '=', userId)
    .where('time_zone', 'is', null)
    .execute();
}

/** The zone's canonical IANA name (Intl's spelling), or a 400 naming `timeZone`. */
function canonicalZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw badRequest('timeZone is not an IANA time zone');
  }
}

/** The tag's canonical BCP 47 spelling (pt-br → pt-BR), or a 400 naming `language`. */
function canonicalLanguage(tag: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    if (canonical) return canonical;
  } catch {
    // A RangeError: not a well-formed tag.
  }
  throw badRequest('language is not a BCP 47 language tag');
}

/** Changes only the preferences sent; null when the account is gone. */
export async function setPreferences(
  db: Kysely<Database>,
  userId: number,
  body: SetPreferencesBody,
): Promise<Preferences | null> {
  const changes: {
    time_zone?: string | null;
    language?: string | null;
    week_start?: number | null;
  } = {};
  if (body.timeZone !== undefined) {
    changes.time_zone = body.timeZone === null ? null : canonicalZone(body.timeZone);
  }
  if (body.language !== undefined) {
    changes.language = body.language === null ? null : canonicalLanguage(body.language);
  }
  if (body.weekStart !== undefined) changes.week_start = body.weekStart;
  if (Object.keys(changes).length > 0) {
    await db.updateTable('users').set(changes).where('id', '=', userId).execute();
  }
  return readPreferences(db, userId);
}
