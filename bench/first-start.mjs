// `node bench/first-start.mjs`: the server's idle memory at the first start of a fresh install
// against a restart (docs/performance.md, Footprint). The package stage of `npm test` measures
// a first start (an empty compile cache, a new database: all migrations run), bench/footprint.mjs
// a restart; this shows both. Starts server/bin/serve.mjs (--entry=) as `npm start` does, with
// the Node flags of server/bin/node-flags.mjs, on
// SQLite (--port=, default 4712), --restarts=N (default 2) more starts on the same data and cache,
// and reads VmRSS and the anonymous memory 3 s after the first answer. With gdb installed it then
// calls glibc's malloc_trim(0) in the server and reads RSS again: the difference is memory the C
// allocator held free.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from '../server/bin/node-flags.mjs';
import { option } from './lib/measure.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ENTRY = option('entry') ?? 'server/bin/serve.mjs';
const PORT = Number(option('port') ?? 4712);
const RESTARTS = Number(option('restarts') ?? 2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const scratch = mkdtempSync(path.join(os.tmpdir(), 'tally-first-start-'));
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATA_DIR: path.join(scratch, 'data'),
  PORT: String(PORT),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  // A compile cache of its own, empty at the first start as on a fresh install.
  NODE_COMPILE_CACHE: path.join(scratch, 'compile-cache'),
};
const megabytes = (pattern, file) =>
  Number(pattern.exec(readFileSync(file, 'utf8'))?.[1] ?? NaN) / 1024;

let gdb = true;
try {
  for (let start = 0; start <= RESTARTS; start += 1) {
    const child = spawn(process.execPath, [...serverNodeFlags(env), path.join(root, ENTRY)], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await sleep(5);
    }
    await sleep(3000);
    const rss = megabytes(/VmRSS:\s+(\d+)/, `/proc/${child.pid}/status`);
    const anonymous = megabytes(/Anonymous:\s+(\d+)/, `/proc/${child.pid}/smaps_rollup`);
    let trimmed = '';
    if (gdb) {
      try {
        execFileSync(
          'gdb',
          ['-p', String(child.pid), '-batch', '-ex', 'call (int)malloc_trim(0)'],
          {
            stdio: 'ignore',
          },
        );
        await sleep(200);
        trimmed = `, ${megabytes(/VmRSS:\s+(\d+)/, `/proc/${child.pid}/status`).toFixed(1)} MB after malloc_trim(0)`;
      } catch {
        gdb = false;
      }
    }
    console.info(
      `${start === 0 ? 'first start' : `restart ${start}`}: RSS ${rss.toFixed(1)} MB (anonymous ${anonymous.toFixed(1)} MB)${trimmed}`,
    );
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  console.info(`load average ${os.loadavg()[0].toFixed(1)}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
