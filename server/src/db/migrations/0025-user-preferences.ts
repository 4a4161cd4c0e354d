import type { Kysely } from 'kysely';

/**
 * The account's own preferences (docs/decisions/118-account-preferences.md): the zone the
 * server reads dates in when no browser is asking (reminders, e-mails, CalDAV, filters), the
 * language and the first day of the week. Null until chosen.
 */
export function userPreferences() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
      await db.schema.alterTable('users').addColumn('week_start', 'integer').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').dropColumn('week_start').execute();
      await db.schema.alterTable('users').dropColumn('language').execute();
      await db.schema.alterTable('users').dropColumn('time_zone').execute();
    },
  };
}
