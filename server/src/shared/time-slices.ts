import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/**
 * A pause for long synchronous work (writing a large calendar feed, reading an import): each
 * call gives the event loop a turn once `sliceMs` have passed since the last one, so other
 * requests are answered in between, and costs nothing otherwise.
 */
export function timeSlicer(sliceMs = 10): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await nextTurn();
    sliceStart = performance.now();
  };
}

/**
 * Works through a backlog in batches (`batch` answers true after a full one: there may be more)
 * taking at most about half of the event loop: after each batch the loop is left to requests
 * for as long as it was busy during it. A burst of background work (10,000 reminders due at
 * once) then takes about twice as long while requests keep their pace
 * (docs/decisions/176-background-rounds-in-small-batches.md).
 */
export async function inHalfTheLoop(batch: () => Promise<boolean>): Promise<void> {
  for (;;) {
    const start = performance.eventLoopUtilization();
    if (!(await batch())) return;
    await sleep(performance.eventLoopUtilization(start).active);
  }
}
