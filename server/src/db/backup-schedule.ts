import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Clock } from '../shared/clock.js';
import { type PeriodicJob, runInBackground, scheduledJob } from '../shared/periodic-job.js';
import { nextRunAfter } from './cron-schedule.js';
import type { Database } from './schema.js';
import { backupDatabase, defaultBackupTarget, pgDumpAvailable, pruneBackups } from './backup.js';

/**
 * BACKUP_SCHEDULE and BACKUP_KEEP (docs/decisions/130-scheduled-backups.md): a backup into
 * DATA_DIR/backups at each time of the cron expression, taken by one process however many
 * share the database (the background jobs' lease), then all but the newest BACKUP_KEEP
 * scheduled backups deleted.
 */

const MINUTE_MS = 60_000;

export interface BackupJobOptions {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'backup'>;
  clock: Clock;
  schedule: string;
}

/** The scheduled backup as a job; its tick takes the backup when one is due. */
export function backupJob({ db, log, config, clock, schedule }: BackupJobOptions): PeriodicJob {
  return scheduledJob({
    db,
    clock,
    name: 'scheduled-backup',
    // A backup of a large database can take a while; another process waits this long for it.
    leaseMs: 60 * MINUTE_MS,
    nextRunAfter: (lastRunAt) => nextRunAfter(schedule, lastRunAt),
    run: async () => {
      const file = defaultBackupTarget(config, clock());
      await backupDatabase(config, file);
      const deleted = pruneBackups(config, config.backup.keep);
      log.info({ file, deleted }, 'scheduled backup written');
    },
  });
}

/**
 * Starts the schedule in the server. On PostgreSQL without pg_dump it refuses to start, naming
 * BACKUP_SCHEDULE: an operator who asked for backups must not believe they are being taken.
 */
export function scheduleBackups(
  app: FastifyInstance,
  options: Omit<BackupJobOptions, 'db' | 'log'>,
) {
  if (options.config.databaseUrl && !pgDumpAvailable()) {
    throw new Error(
      'BACKUP_SCHEDULE needs pg_dump with DATABASE_URL (PostgreSQL): install the PostgreSQL client tools, or unset BACKUP_SCHEDULE and back up PostgreSQL by other means',
    );
  }
  // Looks every minute, the finest step of a cron expression.
  runInBackground(
    app,
    backupJob({ db: app.db, log: app.log, ...options }),
    MINUTE_MS,
    'scheduled backup',
  );
}
