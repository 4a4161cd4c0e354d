// `node bench/caldav-flood.mjs`: a flood of failed CalDAV sign-ins (docs/security.md, CalDAV
// sign-in floods). Starts the server from source (tsx; --entry=server/dist/main.js for a build)
// on SQLite with REDIS_URL (--memory: without), sends --requests (default 3000) PROPFINDs to /dav/
// from loopback, each with HTTP Basic and a made-up name of --name-length characters (default
// 10000) and a wrong app password, 20 at a time, while GET /api/health is timed every 100 ms.
// Reports the answers by status, how many keys and bytes Redis gained (INFO memory, SCAN of
// tally:limits:*; other users of the same Redis add noise), and /api/health's median and worst.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { waitUntilHealthy } from './lib/server.mjs';
import { option } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const args = process.argv.slice(2);
const REQUESTS = Number(option('requests') ?? 3000);
const NAME_LENGTH = Number(option('name-length') ?? 10_000);
const PORT = Number(option('port') ?? 3360);
const ENTRY = option('entry');
const REDIS_URL = args.includes('--memory')
  ? null
  : (process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
const origin = `http://127.0.0.1:${PORT}`;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-flood-'));
const command = ENTRY
  ? [process.execPath, [path.resolve(root, ENTRY)]]
  : [
      path.join(root, 'node_modules/.bin/tsx'),
      ['--conditions=@tally/source', 'server/src/main.ts'],
    ];
const server = spawn(command[0], command[1], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-that-is-at-least-32-bytes-long!!',
    REDIS_URL: REDIS_URL ?? '',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

const redis = REDIS_URL ? new Redis(REDIS_URL) : null;
async function redisState() {
  if (!redis) return null;
  const memory = /used_memory:(\d+)/.exec(await redis.info('memory'))?.[1];
  let keys = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', 'tally:limits:*', 'COUNT', 1000);
    cursor = next;
    keys += found.length;
  } while (cursor !== '0');
  return { bytes: Number(memory), keys };
}

try {
  await waitUntilHealthy(origin, { child: server, seconds: 60 });
  // The server's Redis connection is up once a limit shows there; a few seconds at most.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await redisState();

  const health = [];
  let flooding = true;
  const probe = (async () => {
    while (flooding) {
      const started = performance.now();
      await fetch(`${origin}/api/health`);
      health.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const statuses = {};
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const name = `flood-${i}-`.padEnd(NAME_LENGTH, 'x');
      const response = await fetch(`${origin}/dav/`, {
        method: 'PROPFIND',
        headers: {
          authorization: `Basic ${Buffer.from(`${name}:tally_pat_wrong`).toString('base64')}`,
        },
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  const seconds = (performance.now() - started) / 1000;
  flooding = false;
  await probe;
  const after = await redisState();

  health.sort((a, b) => a - b);
  console.log(
    `${REQUESTS} failed sign-ins, names of ${NAME_LENGTH} characters, in ${seconds.toFixed(1)} s`,
  );
  console.log('answers by status:', JSON.stringify(statuses));
  if (before && after) {
    const mb = (after.bytes - before.bytes) / 1024 / 1024;
    console.log(`Redis: ${after.keys - before.keys} keys and ${mb.toFixed(2)} MB more`);
  }
  console.log(
    `/api/health: median ${health[Math.floor(health.length / 2)]?.toFixed(1)} ms, worst ${health.at(-1)?.toFixed(1)} ms (${health.length} probes)`,
  );
} finally {
  server.kill();
  redis?.disconnect();
  rmSync(dataDir, { recursive: true, force: true });
}
