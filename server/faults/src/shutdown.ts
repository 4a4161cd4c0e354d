// shutdown: SIGTERM under load; in-flight requests finish, new ones are refused, and the process
// exits within 10 s.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateTodoBody, LoginBody, Todo } from '@tally/contract';
import { freshDatabase } from './lib/database.js';
import { bodyOf, request, succeeded, type Answer } from './lib/http.js';
import { check, results } from './lib/report.js';
import { startServer, stopServer } from './lib/server.js';
import type { DatabaseKind } from './lib/settings.js';
import { login, signUp } from './lib/users.js';

/** Turned away as a graceful shutdown should: a 503 or a refused connection. */
const refusedCleanly = (answer: Answer) => answer.status === 503 || answer.error === 'ECONNREFUSED';

export async function shutdown(kind: DatabaseKind): Promise<void> {
  console.info(`\n== graceful shutdown on ${kind}: SIGTERM under load`);
  const database = await freshDatabase(kind, 'shutdown');
  let server = await startServer(database.env);
  try {
    const user = await signUp(server.port);
    // Logins are slow (argon2id), so many are still running when the signal arrives.
    const inFlight: Promise<Answer>[] = [];
    for (let i = 0; i < 90; i++) {
      inFlight.push(
        i % 3 !== 1
          ? request(server.port, 'POST', '/api/auth/login', {
              body: { username: user.username, password: user.password } satisfies LoginBody,
            })
          : request(server.port, 'POST', '/api/todos', {
              body: { title: `inflight ${i}` } satisfies CreateTodoBody,
              token: user.token,
            }),
      );
    }
    // Long enough for every connection to be accepted, short enough that the argon2 work queued
    // behind them is still running.
    await sleep(150);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await sleep(300);
    const late = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(server.port, 'GET', '/api/health', { timeout: 3000 }),
      ),
    );
    const answers = await Promise.all(inFlight);
    if (process.env.FAULT_DEBUG)
      console.info(answers.map((a, i) => `${i}:${a.status ?? a.error}`).join(' '));
    const exit = await server.exited;
    const finished = answers.filter(succeeded).length;
    const refused = answers.filter(refusedCleanly).length;
    const broken = answers.length - finished - refused;
    const lateRefused = late.filter(refusedCleanly).length;
    check(
      broken === 0,
      `${kind}: ${broken} in-flight requests broke: ${JSON.stringify(answers.filter((a) => !succeeded(a) && !refusedCleanly(a)).slice(0, 3))}`,
    );
    check(
      lateRefused === late.length,
      `${kind}: new requests after SIGTERM were not refused: ${JSON.stringify(late)}`,
    );
    check(exit.code === 0, `${kind}: exit code ${exit.code} signal ${exit.signal}`);
    const seconds = (exit.at - signalled) / 1000;
    check(seconds < 10, `${kind}: took ${seconds}s to exit`);
    server = await startServer(database.env);
    await login(server.port, user);
    const titles = bodyOf(
      await request<Todo[]>(server.port, 'GET', '/api/todos', { token: user.token }),
    ).map((t) => t.title);
    const acked = answers
      .map((a, i) => ({ a, i }))
      .filter(({ a, i }) => i % 3 === 1 && a.status === 201)
      .map(({ i }) => `inflight ${i}`);
    check(
      acked.every((t) => titles.includes(t)),
      `${kind}: an acknowledged write was lost at shutdown`,
    );
    results[`shutdown_${kind}`] = {
      inFlight: answers.length,
      finished,
      refusedCleanly: refused,
      broken,
      newRefused: lateRefused,
      exitSeconds: seconds,
    };
    console.info(
      `  ${finished} in-flight finished, ${refused} refused cleanly, ${broken} broken; ${lateRefused}/${late.length} new refused; exit ${exit.code} after ${seconds.toFixed(2)} s; reopened cleanly`,
    );
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
}
