import { Cron } from 'croner';

/**
 * BACKUP_SCHEDULE's cron expressions, read by Croner (a maintained parser without dependencies,
 * docs/decisions/130-scheduled-backups.md). Apart from the schedule itself so that config.ts
 * can check the setting without importing what the backups import.
 */

const cronOf = (schedule: string) => new Cron(schedule, { paused: true });

/**
 * Whether `schedule` is a five-field cron expression (minute hour day month weekday) or a
 * nickname such as @daily. Croner would also take a sixth field of seconds: a backup every few
 * seconds is a mistake, so that is refused.
 */
export function isCronSchedule(schedule: string): boolean {
  const fields = schedule.trim().split(/\s+/);
  if (!(fields.length === 5 || (fields.length === 1 && schedule.startsWith('@')))) return false;
  try {
    return cronOf(schedule).nextRun() !== null;
  } catch {
    return false;
  }
}

/** The first time of the schedule after `time` (epoch ms), in the server's time zone. */
export function nextRunAfter(schedule: string, time: number): number | null {
  return cronOf(schedule).nextRun(new Date(time))?.getTime() ?? null;
}
