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

/** Turned away as a graceful shutdown should: a 503 or a refused connection (new requests only). */
const refusedCleanly = (answer: Answer) => answer.status === 503 || answer.error === 'ECONNREFUSED';

export async function shutdown(kind: DatabaseKind): Promise<void> {
  console.info(`\n== graceful shutdown on ${kind}: SIGTERM under load`);
  const database = await freshDatabase(kind, 'shutdown');
  let server = await startServer(database.env);
  try {
    const user = await signUp(server.port);
    // Logins are slow (argon2id), so many are still running when the signal arrives.
    const inFlight: Promise<Answer & { at: number }>[] = [];
    for (let i = 0; i < 90; i++) {
      const sent =
        i % 3 !== 1
          ? request(server.port, 'POST', '/api/auth/login', {
              body: { username: user.username, password: user.password } satisfies LoginBody,
            })
          : request(server.port, 'POST', '/api/todos', {
              body: { title: `inflight ${i}` } satisfies CreateTodoBody,
              token: user.token,
            });
      inFlight.push(sent.then((answer) => ({ ...answer, at: Date.now() })));
    }
    // Every request is admitted before the signal: a request sent after the burst, on a
    // connection opened after theirs, has been answered, so the server has accepted and read
    // them all. The argon2 work queued behind them is still running, so many finish after it.
    const marker = await request(server.port, 'GET', '/api/health');
    check(succeeded(marker), `${kind}: the server did not answer before SIGTERM`);
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
    // Admitted before SIGTERM, so each must finish: a 503 here is a request the drain dropped.
    const finished = answers.filter(succeeded).length;
    const finishedAfterSignal = answers.filter((a) => succeeded(a) && a.at > signalled).length;
    const broken = answers.length - finished;
    const lateRefused = late.filter(refusedCleanly).length;
    check(
      broken === 0,
      `${kind}: ${broken} in-flight requests did not finish: ${JSON.stringify(answers.filter((a) => !succeeded(a)).slice(0, 3))}`,
    );
    check(
      finishedAfterSignal > 0,
      `${kind}: no request was still in flight at SIGTERM, so the drain was not tested`,
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
      finishedAfterSignal,
      broken,
      newRefused: lateRefused,
      exitSeconds: seconds,
    };
    console.info(
      `  ${finished} in-flight finished (${finishedAfterSignal} after SIGTERM), ${broken} did not; ${lateRefused}/${late.length} new refused; exit ${exit.code} after ${seconds.toFixed(2)} s; reopened cleanly`,
    );
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
}
