import type { FastifyBaseLogger } from 'fastify';
import type { ReminderService } from './service.js';

export interface ReminderPoller {
  start(): void;
  /** Stops the interval and waits for a round under way (shutdown). */
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, one round of deliveries (service.tick). Rounds never overlap; each process
 * polls, and the claim in tick() makes each reminder go out from one of them only. What is due
 * while no process runs goes out at the next start (it stays unsent in the database).
 */
export function createReminderPoller(
  service: Pick<ReminderService, 'tick'>,
  intervalMs: number,
  log: FastifyBaseLogger,
): ReminderPoller {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const round = () => {
    if (running) return;
    running = service
      .tick()
      .then((result) => {
        if (result.claimed > 0) log.info({ reminders: result }, 'reminders sent');
      })
      .catch((err: unknown) => log.error({ err }, 'reminder round failed'))
      .finally(() => {
        running = null;
      });
  };
  return {
    start() {
      if (timer || intervalMs <= 0) return;
      timer = setInterval(round, intervalMs);
      // The poller alone never keeps the process alive.
      timer.unref();
      round();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
