import { setImmediate as nextTurn } from 'node:timers/promises';

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
