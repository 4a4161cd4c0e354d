// soak: SOAK_SECONDS of steady mixed load on SQLite; memory and handles stay flat, no error.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateTodoBody, LoginBody, Todo, UpdateTodoBody } from '@tally/contract';
import type { ProbeSample } from './memory-probe.js';
import { freshDatabase } from './lib/database.js';
import { request, succeeded, type Answer } from './lib/http.js';
import { pick, random } from './lib/random.js';
import { check, results } from './lib/report.js';
import { startServer, stopServer } from './lib/server.js';
import { SOAK_RATE, SOAK_SECONDS } from './lib/settings.js';
import { login, signUp } from './lib/users.js';

/** A probe sample and the second of the soak it was read at. */
interface Sample extends ProbeSample {
  t: number;
}

export async function soak(): Promise<void> {
  console.info(`\n== soak on sqlite: ${SOAK_SECONDS} s at ${SOAK_RATE} requests/s`);
  const database = await freshDatabase('sqlite', 'soak');
  const probeFile = path.join(database.dataDir, 'probe.json');
  const server = await startServer(
    { ...database.env, FAULT_PROBE_FILE: probeFile },
    { memoryProbe: true },
  );
  const samples: Sample[] = [];
  const errors: (number | string)[] = [];
  let sent = 0;
  let inFlight = 0;
  let skipped = 0;
  try {
    const user = await signUp(server.port);
    const ids: number[] = [];
    let tokenAt = Date.now();
    const started = Date.now();
    const end = started + SOAK_SECONDS * 1000;
    const interval = 1000 / SOAK_RATE;
    let next = started;
    let lastSample = 0;
    const one = async () => {
      const op = random();
      let r: Answer;
      if (op < 0.35) r = await request(server.port, 'GET', '/api/todos', { token: user.token });
      else if (op < 0.55 || ids.length < 10) {
        const created = await request<Todo>(server.port, 'POST', '/api/todos', {
          body: { title: `soak ${sent}` } satisfies CreateTodoBody,
          token: user.token,
        });
        if (created.status === 201) ids.push(created.body.id);
        r = created;
      } else if (op < 0.7) {
        const id = pick(ids);
        r = await request(server.port, 'PUT', `/api/todos/${id}`, {
          body: {
            title: `soak upd ${sent}`,
            description: 'x',
            groupId: null,
            completed: random() < 0.5,
          } satisfies UpdateTodoBody,
          token: user.token,
        });
        if (r.status === 404) r = { status: 200, body: null }; // deleted concurrently
      } else if (op < 0.85 && ids.length > 0) {
        const [id] = ids.splice(Math.floor(random() * ids.length), 1);
        r = await request(server.port, 'DELETE', `/api/todos/${id}`, { token: user.token });
      } else if (op < 0.97) {
        r = await request(
          server.port,
          'GET',
          pick(['/api/statistics/total', '/api/statistics/recent?days=30', '/api/todo-groups']),
          { token: user.token },
        );
      } else {
        r = await request(server.port, 'POST', '/api/auth/login', {
          body: { username: user.username, password: user.password } satisfies LoginBody,
        });
      }
      if (!succeeded(r)) errors.push(r.status ?? r.error);
    };
    while (Date.now() < end) {
      if (Date.now() - tokenAt > 10 * 60 * 1000) {
        await login(server.port, user);
        tokenAt = Date.now();
      }
      const now = Date.now();
      if (now >= next) {
        next += interval;
        if (inFlight >= 20) skipped++;
        else {
          inFlight++;
          sent++;
          void one().finally(() => inFlight--);
        }
      }
      if (now - lastSample >= 5000) {
        lastSample = now;
        try {
          samples.push({
            t: Math.round((now - started) / 1000),
            ...(JSON.parse(readFileSync(probeFile, 'utf8')) as ProbeSample),
          });
        } catch {
          // first second
        }
        const s = samples.at(-1);
        if (samples.length % 12 === 0 && s) {
          process.stdout.write(
            `  t=${s.t}s rss ${(s.rss / 2 ** 20).toFixed(1)} MB heap ${(s.heapUsed / 2 ** 20).toFixed(1)} MB fds ${s.fds} sent ${sent}\r`,
          );
        }
      }
      await sleep(Math.max(0, Math.min(next - Date.now(), 5)));
    }
    while (inFlight > 0) await sleep(20);
    const warm = samples.filter((s) => s.t >= Math.max(10, SOAK_SECONDS * 0.2));
    const mean = (list: Sample[], key: 'rss' | 'heapUsed') =>
      list.reduce((sum, s) => sum + s[key], 0) / Math.max(1, list.length);
    const head = warm.slice(0, 3);
    const tail = warm.slice(-3);
    const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
    const summary = {
      seconds: SOAK_SECONDS,
      rate: SOAK_RATE,
      requests: sent,
      skippedOverload: skipped,
      errors: errors.length,
      rssMbAfterWarmup: mb(mean(head, 'rss')),
      rssMbEnd: mb(mean(tail, 'rss')),
      heapMbAfterWarmup: mb(mean(head, 'heapUsed')),
      heapMbEnd: mb(mean(tail, 'heapUsed')),
      fdsAfterWarmup: Math.max(...head.map((s) => s.fds)),
      fdsEnd: Math.max(...tail.map((s) => s.fds)),
      handlesAfterWarmup: Math.max(...head.map((s) => s.handles)),
      handlesEnd: Math.max(...tail.map((s) => s.handles)),
    };
    results.soak_sqlite = summary;
    console.info(`\n  ${JSON.stringify(summary)}`);
    check(
      errors.length === 0,
      `soak: ${errors.length} errors: ${[...new Set(errors)].slice(0, 5).join(',')}`,
    );
    check(skipped === 0, `soak: ${skipped} requests skipped because 20 were already in flight`);
    check(warm.length >= 4, 'soak: too few memory samples');
    check(
      summary.rssMbEnd - summary.rssMbAfterWarmup < Math.max(30, summary.rssMbAfterWarmup * 0.2),
      'soak: RSS grew',
    );
    check(summary.heapMbEnd - summary.heapMbAfterWarmup < 15, 'soak: heap grew');
    check(summary.fdsEnd - summary.fdsAfterWarmup <= 5, 'soak: file descriptors grew');
    check(summary.handlesEnd - summary.handlesAfterWarmup <= 5, 'soak: active handles grew');
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
}
