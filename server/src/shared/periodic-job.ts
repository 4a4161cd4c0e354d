import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';

export interface PeriodicJobOptions {
  db: Kysely<Database>;
  clock: Clock;
  /** The job's row in job_leases. */
  name: string;
  /** Runs at most once per this many milliseconds, across every process on the database. */
  everyMs: number;
  /** How long a lease holds: a process that dies mid-run frees the job after this. */
  leaseMs: number;
  run: () => Promise<void>;
}

export interface PeriodicJob {
  /** Runs the job if it is due and no other process holds it; true when this call ran it. */
  tick(): Promise<boolean>;
}

/**
 * A job that runs once per period however many server processes share the database
 * (docs/decisions/053-trash-purge-job.md). Its schedule lives in job_leases, not in a process:
 * a restarted process, or another one, sees when it last ran. Taking the lease is one
 * conditional UPDATE, so of processes racing for it exactly one gets it.
 */
export function periodicJob(options: PeriodicJobOptions): PeriodicJob {
  const { db, clock, name, everyMs, leaseMs } = options;
  // Tells this process's leases from another's, so one never releases a lease it lost.
  const holder = randomUUID();
  return {
    async tick() {
      const now = clock();
      await db
        .insertInto('job_leases')
        .values({ name, lease_until: 0, runs: 0 })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const taken = await db
        .updateTable('job_leases')
        .set({ holder, lease_until: now + leaseMs })
        .where('name', '=', name)
        .where('lease_until', '<=', now)
        .where((eb) =>
          eb.or([eb('last_run_at', 'is', null), eb('last_run_at', '<=', now - everyMs)]),
        )
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return false;
      await runHeld(db, name, holder, now, options.run);
      return true;
    },
  };
}

/** Runs a job whose lease `holder` took at `now`, then records the run and frees the lease. */
async function runHeld(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: number,
  run: () => Promise<void>,
): Promise<void> {
  try {
    await run();
  } catch (error) {
    // Free the lease at once, without a run recorded, so the next tick tries again.
    await db
      .updateTable('job_leases')
      .set({ lease_until: 0 })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .execute();
    throw error;
  }
  await db
    .updateTable('job_leases')
    .set((eb) => ({ lease_until: 0, last_run_at: now, runs: eb('runs', '+', 1) }))
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

export interface ScheduledJobOptions extends Omit<PeriodicJobOptions, 'everyMs'> {
  /** The first time the job is due after it last ran at `lastRunAt` (epoch ms); null: never. */
  nextRunAfter: (lastRunAt: number) => number | null;
}

/**
 * A job due at the times of a schedule (a cron expression's), once per time however many
 * processes share the database, as periodicJob is once per period. The schedule counts from the
 * first tick on a database, so a new server does not run the job at once. Taking it is one
 * UPDATE that names the last run it read: of processes racing for it exactly one gets it.
 */
export function scheduledJob(options: ScheduledJobOptions): PeriodicJob {
  const { db, clock, name, leaseMs } = options;
  const holder = randomUUID();
  return {
    async tick() {
      const now = clock();
      await db
        .insertInto('job_leases')
        .values({ name, lease_until: 0, runs: 0, last_run_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('job_leases')
        .select(['lease_until', 'last_run_at'])
        .where('name', '=', name)
        .executeTakeFirst();
      if (!row || row.lease_until > now) return false;
      const lastRunAt = row.last_run_at ?? now;
      const due = options.nextRunAfter(lastRunAt);
      if (due === null || due > now) return false;
      const taken = await db
        .updateTable('job_leases')
        .set({ holder, lease_until: now + leaseMs })
        .where('name', '=', name)
        .where('lease_until', '<=', now)
        .where((eb) =>
          row.last_run_at === null
            ? eb('last_run_at', 'is', null)
            : eb('last_run_at', '=', row.last_run_at),
        )
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return false;
      await runHeld(db, name, holder, now, options.run);
      return true;
    },
  };
}

/**
 * The one scheduler of the app's background work: runs `round` once the app is ready and then
 * every `everyMs` until it closes. Rounds never overlap (a round still running when the next is
 * due skips that one); a failed round is logged and the next one tries again; the timer never
 * keeps an otherwise finished process alive; closing waits for a round under way, so it ends
 * before the database closes.
 */
export function repeatWhileOpen(
  app: FastifyInstance,
  everyMs: number,
  label: string,
  round: () => Promise<unknown>,
): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = round()
      .then(() => undefined)
      .catch((error: unknown) => app.log.error({ err: error }, `${label} failed`))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}

/** Looks whether `job` is due once the app is ready and then every `checkEveryMs`. */
export function runInBackground(
  app: FastifyInstance,
  job: PeriodicJob,
  checkEveryMs: number,
  label: string,
): void {
  repeatWhileOpen(app, checkEveryMs, label, () => job.tick());
}
