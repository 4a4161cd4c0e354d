// `node bench/allocations.mjs [entry] [requests]`: what the server allocates per list request, by
// function (docs/performance.md, Footprint). Seeds a 200-todo user on SQLite in a temporary
// DATA_DIR, starts `entry` (default server/dist/main.js, unbundled so functions keep their files)
// with the inspector on 127.0.0.1:9339, warms it with 2,000 lists, then samples every allocation
// (V8's sampling heap profiler, every 1 KB, objects already collected included) over `requests`
// lists (default 3,000) at 10 connections, and prints KB per request: the total, then the top
// functions by their own allocations and by what they and their callees allocated. The raw
// profile goes to $TMPDIR/tally-allocations.heapprofile (opens in Chrome's DevTools, Memory).
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { PASSWORD, seed } from './lib/seed.mjs';
const ENTRY = process.argv[2] ?? 'server/dist/main.js';
const N = Number(process.argv[3] ?? 2000);
const PORT = 4131;
const dataDir = path.join(os.tmpdir(), 'tally-allocations');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
rmSync(dataDir, { recursive: true, force: true });
const env = {
  ...process.env,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  WEB_CONCURRENCY: '1',
  NODE_OPTIONS: '',
};
async function up(args) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    await sleep(20);
  }
}
let c = await up([ENTRY]);
c.kill();
await new Promise((r) => c.once('exit', r));
await seed({ dialect: 'sqlite', file: path.join(dataDir, 'tally.db'), dataDir }, [
  { username: 'p', groups: 5, todos: 200, events: 0, planned: true },
]);
c = await up(['--inspect=127.0.0.1:9339', '--max-semi-space-size=16', ENTRY]);
const { accessToken } = await (
  await fetch(`http://127.0.0.1:${PORT}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'p', password: PASSWORD }),
  })
).json();
const opts = {
  url: `http://127.0.0.1:${PORT}/api/todos`,
  connections: 10,
  amount: N,
  headers: { authorization: `Bearer ${accessToken}` },
};
await autocannon({ ...opts, amount: 2000 }); // warm
const [{ webSocketDebuggerUrl }] = await (await fetch('http://127.0.0.1:9339/json')).json();
const ws = new WebSocket(webSocketDebuggerUrl);
await new Promise((r) => ws.addEventListener('open', r));
let id = 0;
const pending = new Map();
ws.addEventListener('message', (e) => {
  const m = JSON.parse(e.data);
  if (m.id && pending.has(m.id)) {
    pending.get(m.id)(m);
    pending.delete(m.id);
  }
});
const send = (method, params = {}) =>
  new Promise((r) => {
    const i = ++id;
    pending.set(i, r);
    ws.send(JSON.stringify({ id: i, method, params }));
  });
await send('HeapProfiler.enable');
await send('HeapProfiler.startSampling', {
  samplingInterval: 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
const res = await autocannon(opts);
const { result } = await send('HeapProfiler.stopSampling');
writeFileSync(
  path.join(os.tmpdir(), 'tally-allocations.heapprofile'),
  JSON.stringify(result.profile),
);
const self = new Map();
const incl = new Map();
function walk(node, stack) {
  const f = node.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*node_modules\//, 'nm/').replace(/.*\/server\/dist\//, 'dist/')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + node.selfSize);
  let total = node.selfSize;
  for (const ch of node.children) total += walk(ch, [...stack, key]);
  if (!stack.includes(key)) incl.set(key, (incl.get(key) ?? 0) + total);
  return total;
}
const all = walk(result.profile.head, []);
const per = (b) => (b / res.requests.total / 1024).toFixed(1) + ' KB/req';
console.log('total', per(all), res.requests.total, 'requests');
console.log('--- self');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 35)) console.log(per(v), k);
console.log('--- inclusive');
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(per(v), k);
ws.close();
c.kill();
rmSync(dataDir, { recursive: true, force: true });
