// Preloaded into the server by the soak suite (node --import dist/memory-probe.js): every second
// it writes the process's memory and open-handle counts to FAULT_PROBE_FILE. Not part of the
// server.
import { readdirSync, writeFileSync } from 'node:fs';

/** What the probe file holds. */
export interface ProbeSample {
  at: number;
  rss: number;
  heapUsed: number;
  /** Open file descriptors, or -1 where /proc is missing. */
  fds: number;
  handles: number;
}

const file = process.env.FAULT_PROBE_FILE;
if (file) {
  const timer = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    let fds = -1;
    try {
      fds = readdirSync('/proc/self/fd').length;
    } catch {
      // not Linux
    }
    const handles = process.getActiveResourcesInfo().length;
    const sample: ProbeSample = { at: Date.now(), rss, heapUsed, fds, handles };
    writeFileSync(file, JSON.stringify(sample));
  }, 1000);
  timer.unref();
}
