import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './connection.js';
import type { Database } from './schema.js';
import { initial } from './migrations/0001-initial.js';
import { statisticsRollups } from './migrations/0002-statistics-rollups.js';
import { sessions } from './migrations/0003-sessions.js';
import { emailTokens } from './migrations/0004-email-tokens.js';
import { planning } from './migrations/0005-planning.js';
import { completions } from './migrations/0006-completions.js';
import { apiTokensAndCalendarFeeds } from './migrations/0007-api-tokens-and-calendar-feeds.js';
import { importKeys } from './migrations/0008-import-keys.js';
import { searchAndTrash } from './migrations/0009-search-and-trash.js';
import { idempotencyKeys } from './migrations/0010-idempotency-keys.js';
import { reminders } from './migrations/0011-reminders.js';
import { sessionProofs } from './migrations/0012-session-proofs.js';
import { oidc } from './migrations/0013-oidc.js';
import { twoFactor } from './migrations/0014-two-factor.js';
import { passkeys } from './migrations/0015-passkeys.js';
import { todoDetails } from './migrations/0016-todo-details.js';
import { caldav } from './migrations/0017-caldav.js';
import { caldavChangeMarks } from './migrations/0018-caldav-change-marks.js';
import { versions } from './migrations/0019-versions.js';
import { notificationChannels } from './migrations/0024-notification-channels.js';

/**
 * Migrations are committed, numbered and never edited once applied. They are listed here rather
 * than read from disk, so the compiled server and the tests run the very same list.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': initial(dialect),
    '0002-statistics-rollups': statisticsRollups(dialect),
    '0003-sessions': sessions(dialect),
    '0004-email-tokens': emailTokens(dialect),
    '0005-planning': planning(),
    '0006-completions': completions(dialect),
    '0007-api-tokens-and-calendar-feeds': apiTokensAndCalendarFeeds(dialect),
    '0008-import-keys': importKeys(),
    '0009-search-and-trash': searchAndTrash(dialect),
    '0010-idempotency-keys': idempotencyKeys(dialect),
    '0011-reminders': reminders(dialect),
    '0012-session-proofs': sessionProofs(dialect),
    '0013-oidc': oidc(dialect),
    '0014-two-factor': twoFactor(dialect),
    '0015-passkeys': passkeys(dialect),
    '0016-todo-details': todoDetails(dialect),
    '0017-caldav': caldav(dialect),
    '0018-caldav-change-marks': caldavChangeMarks(dialect),
    '0019-versions': versions(),
    '0024-notification-channels': notificationChannels(dialect),
  };
}

/**
 * Brings the database to the newest schema; throws with the failing migration's name.
 * `pgSchema` names the PostgreSQL schema that holds the bookkeeping tables when it is not the
 * default (tests give each file its own).
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  dialect: Dialect,
  pgSchema?: string,
): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const migrator = new Migrator({
    db,
    provider,
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${String(error)}`, { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}
