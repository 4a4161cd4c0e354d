import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Config } from '../config.js';
import { backupDatabase, pgDumpAvailable, preMigrationTarget } from './backup.js';
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
import { operatorsAndAuditLog } from './migrations/0020-operators-and-audit-log.js';
import { importHistory } from './migrations/0021-import-history.js';
import { inbox } from './migrations/0022-inbox.js';
import { idempotencyEtags } from './migrations/0023-idempotency-etags.js';
import { notificationChannels } from './migrations/0024-notification-channels.js';
import { userPreferences } from './migrations/0025-user-preferences.js';
import { savedFilters } from './migrations/0026-saved-filters.js';
import { durations } from './migrations/0027-durations.js';
import { caldavPendingParent } from './migrations/0028-caldav-pending-parent.js';
import { notificationPreferences } from './migrations/0029-notification-preferences.js';
import { severalReminders } from './migrations/0030-several-reminders.js';

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
    '0020-operators-and-audit-log': operatorsAndAuditLog(dialect),
    '0021-import-history': importHistory(dialect),
    '0022-inbox': inbox(dialect),
    '0023-idempotency-etags': idempotencyEtags(),
    '0024-notification-channels': notificationChannels(dialect),
    '0025-user-preferences': userPreferences(),
    '0026-saved-filters': savedFilters(dialect),
    '0027-durations': durations(),
    '0028-caldav-pending-parent': caldavPendingParent(),
    '0029-notification-preferences': notificationPreferences(dialect),
    '0030-several-reminders': severalReminders(dialect),
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
  const migrator = migratorOf(db, dialect, pgSchema);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${String(error)}`, { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}

function migratorOf(db: Kysely<Database>, dialect: Dialect, pgSchema?: string) {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  return new Migrator({ db, provider, ...(pgSchema ? { migrationTableSchema: pgSchema } : {}) });
}

export interface PreMigrationBackup {
  /** The backup written, or null when none was needed or none could be made. */
  file: string | null;
  /** Why there is none although migrations were due (PostgreSQL without pg_dump). */
  skipped: string | null;
}

/**
 * Before migrations change the schema of a database that holds data, a backup of it goes to
 * DATA_DIR/backups/before-<first migration>-<time>, so an upgrade that goes wrong can be undone
 * (docs/decisions/130-scheduled-backups.md). A new, empty database needs none. On PostgreSQL
 * without pg_dump the migrations still run (an upgrade is not blocked on a host that backs up
 * its PostgreSQL by other means), and `skipped` says why there is no backup.
 */
export async function backupBeforeMigrations(
  database: { db: Kysely<Database>; dialect: Dialect },
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  now: number,
): Promise<PreMigrationBackup> {
  const known = await migratorOf(database.db, database.dialect).getMigrations();
  const pending = known.filter((migration) => migration.executedAt === undefined);
  const first = pending[0];
  if (first === undefined || pending.length === known.length) return { file: null, skipped: null };
  if (config.databaseUrl && !pgDumpAvailable()) {
    return {
      file: null,
      skipped: 'pg_dump is not installed, so no backup was made before migrating',
    };
  }
  const file = preMigrationTarget(config, first.name, now);
  await backupDatabase(config, file);
  return { file, skipped: null };
}

/** The server's and the CLI's start: the backup above, then the migrations. */
export async function migrateWithBackup(
  database: { db: Kysely<Database>; dialect: Dialect },
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  say: (line: string) => void,
): Promise<string[]> {
  const backup = await backupBeforeMigrations(database, config, Date.now());
  if (backup.file) say(`Backed up the database to ${backup.file} before migrating`);
  if (backup.skipped) say(backup.skipped);
  return migrateToLatest(database.db, database.dialect);
}
