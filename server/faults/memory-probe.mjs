// Preloaded into the server by the soak test (node --import): every second it writes the
// process's memory and open-handle counts to FAULT_PROBE_FILE. Not part of the server.
import { readdirSync, writeFileSync } from 'node:fs';

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
    writeFileSync(file, JSON.stringify({ at: Date.now(), rss, heapUsed, fds, handles }));
  }, 1000);
  timer.unref();
}
