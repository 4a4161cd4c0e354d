// `node bench/notifications.mjs [reminders] [digests] [--server=FILE] [--profile=DIR]`: what
// sending notifications costs the server (docs/performance.md, Notifications). Starts the built
// server (server/dist/main.js, or FILE: another build's, kept beside it) on SQLite in a temporary
// DATA_DIR with a webhook stand-in and a loopback SMTP server (the API tests' own,
// server/src/test/, in a child process: bench/lib/notification-receivers.mjs), seeds one user with 200 todos whose list is timed, one with
// `reminders` todos (default 10,000) and a webhook channel, and `digests` users (default 1,000)
// with a verified address. It times GET /api/todos and POST /api/todos one after the other while
// nothing goes out. Then, twice, it makes every reminder due and every digest's time come (rows
// written beside the running server, as a clock passing would) and waits until the webhook has
// every reminder and the SMTP server every digest: first alone, for the server's CPU and the wall
// time, then timing those requests meanwhile. Prints the latencies (median, p95) before, during,
// after (nothing going out any more) and after a restart of the server.
import { fork, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PASSWORD, seed } from './lib/seed.mjs';
import { openDatabase } from './lib/sql.mjs';

const args = process.argv.slice(2);
const [REMINDERS = 10_000, DIGESTS = 1_000] = args.filter((a) => !a.startsWith('--')).map(Number);
/** `--profile=DIR`: the server writes a V8 CPU profile there (bench/profile-summary.mjs reads it). */
const PROFILE_DIR = args.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const SERVER =
  args.find((a) => a.startsWith('--server='))?.slice('--server='.length) ?? 'server/dist/main.js';
const PORT = 4141;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SECRET = `whsec_${Buffer.from('bench-webhook-signing-secret-32b').toString('base64')}`;
const TICKS_PER_SECOND = 100;
const dataDir = path.join(os.tmpdir(), 'tally-bench-notifications');
const file = path.join(dataDir, 'tally.db');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
rmSync(dataDir, { recursive: true, force: true });

// The webhook and SMTP stand-ins live in a child process: what they keep of every message is
// not this process's heap, whose collector would otherwise run through the timed requests.
const receiverProcess = fork(path.join(import.meta.dirname, 'lib/notification-receivers.mjs'));
/** Sends a message to the stand-ins and waits for their answer (one at a time). */
const ask = (message) =>
  new Promise((resolve) => {
    receiverProcess.once('message', resolve);
    if (message) receiverProcess.send(message);
  });
const receivers = await ask(null);
await ask({ type: 'secret', name: 'bench', secret: SECRET });
const received = () => ask({ type: 'counts' });
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
  SMTP_URL: receivers.smtpUrl,
  MAIL_FROM: 'Tally <tally@bench.example>',
  PUBLIC_URL: ORIGIN,
  OUTBOUND_ALLOW_PRIVATE: 'true',
};

async function up() {
  const flags = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...flags, SERVER], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (;;) {
    try {
      if ((await fetch(`${ORIGIN}/api/health`)).ok) return child;
    } catch {
      /* not listening yet */
    }
    await sleep(20);
  }
}
async function down(child) {
  child.kill();
  await new Promise((resolve) => child.once('exit', resolve));
}

/** The server's CPU time so far (user and system), in seconds. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

// The schema, then the users straight into the database.
await down(await up());
const plans = [
  { username: 'lister', groups: 5, todos: 200, events: 0, planned: true },
  { username: 'reminded', groups: 1, todos: REMINDERS, events: 0 },
  ...Array.from({ length: DIGESTS }, (_, i) => ({
    username: `digest${i}`,
    groups: 1,
    todos: 3,
    events: 0,
  })),
];
const users = await seed({ dialect: 'sqlite', file, dataDir }, plans);
const db = openDatabase({ dialect: 'sqlite', file });
const now = Date.now();
const reminded = users.get('reminded').id;
await db.query('update todos set completed = 0 where user_id = ?', [reminded]);
await db.query(
  "insert into notification_channels (user_id, kind, name, url, secret, reminders, enabled, created_at) values (?, 'webhook', 'bench', ?, ?, 1, 1, ?)",
  [reminded, `${receivers.origin}/hooks/bench`, SECRET, now],
);
await db.query('update users set email_verified_at = ? where username like ?', [now, 'digest%']);

const server = await up();
const login = await fetch(`${ORIGIN}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'lister', password: PASSWORD }),
});
const { accessToken } = await login.json();
const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };

/** One GET /api/todos and one POST /api/todos, each timed in ms. */
async function probe(samples) {
  let start = performance.now();
  const list = await fetch(`${ORIGIN}/api/todos`, { headers });
  await list.arrayBuffer();
  samples.get.push(performance.now() - start);
  start = performance.now();
  const created = await fetch(`${ORIGIN}/api/todos`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: 'Timed while notifications go out' }),
  });
  const { id } = await created.json();
  samples.post.push(performance.now() - start);
  if (!list.ok || !created.ok) throw new Error(`probe: ${list.status} ${created.status}`);
  // Out of the timed list again, for its length to stay the same. No content-type: a DELETE
  // has no body, and Fastify refuses an empty JSON one (400), which left every probe's todo in
  // the list and made it 17 times longer by the end of a run.
  const removed = await fetch(`${ORIGIN}/api/todos/${id}`, {
    method: 'DELETE',
    headers: { authorization: headers.authorization },
  });
  await removed.arrayBuffer();
  if (removed.status !== 204) throw new Error(`probe: DELETE ${removed.status}`);
}
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const summary = (values) =>
  `median ${quantile(values, 0.5).toFixed(1)} ms, p95 ${quantile(values, 0.95).toFixed(1)} ms (${values.length})`;

// Warm, then the baseline while nothing goes out.
for (let i = 0; i < 100; i++) await probe({ get: [], post: [] });
const before = { get: [], post: [] };
const beforeCpu = cpuSeconds(server.pid);
const beforeBenchCpu = process.cpuUsage();
for (let i = 0; i < 300; i++) await probe(before);
const cpuPerProbe = ((cpuSeconds(server.pid) - beforeCpu) / 300) * 1000;
const benchCpuPerProbe = (() => {
  const { user, system } = process.cpuUsage(beforeBenchCpu);
  return (user + system) / 1000 / 300;
})();

const todoIds = await db.query('select id from todos where user_id = ? order by id', [reminded]);

/**
 * Every reminder due now and every digest's time this minute (UTC, the seeded users' zone);
 * waits until the webhook has every reminder and the SMTP server every digest, timing requests
 * meanwhile when `samples` is given (else it looks every 100 ms): those while reminders go out
 * in `samples.reminders`, those after, while only digests do, in `samples.digests`.
 */
async function sendAll(samples) {
  const started = Date.now();
  const minute = new Date(started).getUTCHours() * 60 + new Date(started).getUTCMinutes();
  const countsBefore = await received();
  await db.transaction(async (query) => {
    await query('delete from reminders where user_id = ?', [reminded]);
    for (const { id } of todoIds) {
      await query(
        "insert into reminders (todo_id, minutes_before, user_id, fire_at, due_date, due_time, time_zone, sent_at) values (?, 0, ?, ?, ?, '09:00', 'UTC', null)",
        [id, reminded, started, new Date(started).toISOString().slice(0, 10)],
      );
    }
    await query('delete from notification_settings');
    await query(
      'insert into notification_settings (user_id, digest_minute) select id, ? from users where username like ?',
      [minute, 'digest%'],
    );
  });
  const cpuStart = cpuSeconds(server.pid);
  const receiversCpuStart = cpuSeconds(receiverProcess.pid);
  const benchCpuStart = process.cpuUsage();
  let remindersDone = 0;
  let digestsDone = 0;
  let firstMail = 0;
  while (remindersDone === 0 || digestsDone === 0) {
    if (samples) await probe(remindersDone === 0 ? samples.reminders : samples.digests);
    else await sleep(100);
    const counts = await received();
    const mails = counts.mails - countsBefore.mails;
    if (mails > 0 && firstMail === 0) firstMail = Date.now();
    if (remindersDone === 0 && counts.webhooks - countsBefore.webhooks >= todoIds.length) {
      remindersDone = Date.now();
    }
    if (digestsDone === 0 && mails >= DIGESTS) digestsDone = Date.now();
  }
  const { user, system } = process.cpuUsage(benchCpuStart);
  return {
    cpu: cpuSeconds(server.pid) - cpuStart,
    receiversCpu: cpuSeconds(receiverProcess.pid) - receiversCpuStart,
    benchCpu: (user + system) / 1e6,
    reminders: (remindersDone - started) / 1000,
    firstMail: (firstMail - started) / 1000,
    digests: (digestsDone - firstMail) / 1000,
  };
}

const alone = await sendAll(null);
const during = { reminders: { get: [], post: [] }, digests: { get: [], post: [] } };
const duringRun = await sendAll(during);
// The same probes once nothing goes out any more, then after a restart: what the sending left
// behind (a larger database, the server's heap) apart from the sending itself.
const after = { get: [], post: [] };
for (let i = 0; i < 300; i++) await probe(after);
await down(server);
const restarted = await up();
for (let i = 0; i < 100; i++) await probe({ get: [], post: [] });
const afterRestart = { get: [], post: [] };
for (let i = 0; i < 300; i++) await probe(afterRestart);
const { refused } = await received();
await db.close();
await down(restarted);
await ask({ type: 'close' });
rmSync(dataDir, { recursive: true, force: true });

const both = (key) => [...during.reminders[key], ...during.digests[key]];
const cpuLine = (run) =>
  `server ${run.cpu.toFixed(1)} s, stand-ins ${run.receiversCpu.toFixed(1)} s, this process ${run.benchCpu.toFixed(1)} s`;
console.log(`${todoIds.length} reminders to a webhook, ${DIGESTS} digests by SMTP, SQLite`);
console.log(`CPU from the first due to the last received: ${cpuLine(alone)}`);
console.log(`reminders: all received ${alone.reminders.toFixed(1)} s after due`);
console.log(
  `digests: the first ${alone.firstMail.toFixed(1)} s after their time (the digest round runs each minute), ` +
    `all ${alone.digests.toFixed(1)} s after the first`,
);
console.log(
  `while probing: CPU ${cpuLine(duringRun)}; reminders all received ${duringRun.reminders.toFixed(1)} s after due, ` +
    `digests all ${duringRun.digests.toFixed(1)} s after the first`,
);
console.log(
  `CPU per probe (GET, POST, DELETE) before: server ${cpuPerProbe.toFixed(2)} ms, this process ${benchCpuPerProbe.toFixed(2)} ms`,
);
console.log(
  `before: GET /api/todos ${summary(before.get)}; POST /api/todos ${summary(before.post)}`,
);
console.log(
  `during: GET /api/todos ${summary(both('get'))}; POST /api/todos ${summary(both('post'))}`,
);
console.log(
  `  while reminders go out: GET ${summary(during.reminders.get)}; POST ${summary(during.reminders.post)}`,
);
console.log(
  `  then digests alone: GET ${summary(during.digests.get)}; POST ${summary(during.digests.post)}`,
);
console.log(`after, nothing going out: GET ${summary(after.get)}; POST ${summary(after.post)}`);
console.log(
  `after a restart: GET ${summary(afterRestart.get)}; POST ${summary(afterRestart.post)}`,
);
if (refused.length > 0) console.log(`refused: ${refused}`);
