// `npx tsc -b contract server && node bench/caldav-uploads.mjs [--todos=N]`: the server CPU an
// upload over CalDAV costs, per PUT, as a calendar grows (docs/performance.md, CalDAV: uploads).
// Starts Tally on a fresh SQLite database (or PostgreSQL: --dialect=postgres), makes an account
// and an app password, then PUTs N new todos one after the other into its Todos calendar (the
// objects bench/caldav-vdirsyncer.mjs uploads: a third due, a tenth weekly, a twentieth a subtask
// of the todo before it) and reads the server's own CPU time (/proc/<pid>/stat) for each tenth.
// Flags: --todos=N (default 5,000), --port=N (default 3793), --dialect=sqlite|postgres,
// --entry=file Tally starts from (default server/dist/main.js: another build for before/after).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase, dropDatabase } from './lib/seed.mjs';
import { caldavAccount, waitUntilHealthy } from './lib/server.mjs';
import { cpuMs, option } from './lib/measure.mjs';
import { benchVtodo } from './lib/vtodo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const TODOS = Number(option('todos') ?? 5_000);
const PORT = Number(option('port') ?? 3793);
const DIALECT = option('dialect') ?? 'sqlite';
const ENTRY = option('entry') ?? 'server/dist/main.js';
const dataDir = path.join(os.tmpdir(), `tally-bench-uploads-${PORT}`);

rmSync(dataDir, { recursive: true, force: true });
const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const serverDist = path.dirname(path.join(root, ENTRY));
const where = { dialect: DIALECT, dataDir, adminUrl, dbName: 'tally_bench_uploads', serverDist };
const target = await createDatabase(where);
const child = spawn(process.execPath, [path.join(root, ENTRY)], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-that-is-at-least-32-bytes-long!!',
    DATA_DIR: dataDir,
    DATABASE_URL: target.databaseUrl ?? '',
    REDIS_URL: '',
    WEB_CONCURRENCY: '1',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  const base = `http://127.0.0.1:${PORT}`;
  await waitUntilHealthy(base, { child });
  const { authorization: auth, home } = await caldavAccount(base, 'uploads');
  const tenth = Math.max(1, Math.floor(TODOS / 10));
  const started = cpuMs(child.pid);
  let mark = started;
  const steps = [];
  for (let i = 0; i < TODOS; i += 1) {
    const put = await fetch(`${base}${home}todos/bench-${i}.ics`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'text/calendar', 'if-none-match': '*' },
      body: benchVtodo(i, { related: true }),
    });
    await put.arrayBuffer();
    if (put.status !== 201) throw new Error(`PUT bench-${i}: ${put.status}`);
    if ((i + 1) % tenth === 0) {
      const now = cpuMs(child.pid);
      steps.push(((now - mark) / tenth).toFixed(2));
      mark = now;
    }
  }
  const total = cpuMs(child.pid) - started;
  console.log(
    `${TODOS} PUTs on ${DIALECT} (${ENTRY}): server CPU ${(total / 1000).toFixed(1)} s, ` +
      `${(total / TODOS).toFixed(2)} ms per PUT; per tenth ${steps.join(', ')} ms; ` +
      `load ${os.loadavg()[0].toFixed(1)}`,
  );
} finally {
  child.kill();
  await new Promise((resolve) => child.once('exit', resolve));
  await dropDatabase(where);
  rmSync(dataDir, { recursive: true, force: true });
}
