// durability: SIGKILL mid-burst KILLS times; after every restart each acknowledged write is
// there, no refused one is, and none is half-applied.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateTodoBody, Todo, TotalStatistics, UpdateTodoBody } from '@tally/contract';
import { freshDatabase } from './lib/database.js';
import { bodyOf, request } from './lib/http.js';
import { pick, random } from './lib/random.js';
import { check, failures, results } from './lib/report.js';
import { startServer, stopServer } from './lib/server.js';
import { KILLS, type DatabaseKind } from './lib/settings.js';
import { login, signUp } from './lib/users.js';

export async function durability(kind: DatabaseKind): Promise<void> {
  console.info(`\n== durability on ${kind}: ${KILLS} SIGKILLs mid-burst`);
  const database = await freshDatabase(kind, 'durability');
  const ledger = new Map<number, string>(); // acknowledged todos: id -> title
  const deleted = new Set<number>(); // acknowledged deletes
  const refused = new Set<string>(); // titles of refused creates
  let acknowledged = 0;
  let unanswered = 0;
  let checked = 0;
  let server = await startServer(database.env);
  const user = await signUp(server.port);
  try {
    for (let cycle = 1; cycle <= KILLS; cycle++) {
      await login(server.port, user);
      const pendingCreates = new Set<string>();
      const pendingUpdates = new Map<number, string[]>();
      const pendingDeletes = new Set<number>();
      let n = 0;
      let killed = false;
      const worker = async () => {
        while (!killed) {
          const op = random();
          const ids = [...ledger.keys()];
          const i = n++;
          if (op < 0.45 || ids.length < 5) {
            const title = `c${cycle}-${i}`;
            pendingCreates.add(title);
            const r = await request<Todo>(server.port, 'POST', '/api/todos', {
              body: { title } satisfies CreateTodoBody,
              token: user.token,
            });
            if (r.status === 201) {
              pendingCreates.delete(title);
              ledger.set(r.body.id, title);
              acknowledged++;
            } else if (r.status) {
              failures.push(`create answered ${r.status}`);
            }
          } else if (op < 0.7) {
            const id = pick(ids);
            const title = `u${cycle}-${i}`;
            pendingUpdates.set(id, [...(pendingUpdates.get(id) ?? []), title]);
            const r = await request(server.port, 'PUT', `/api/todos/${id}`, {
              body: {
                title,
                description: null,
                groupId: null,
                completed: random() < 0.5,
              } satisfies UpdateTodoBody,
              token: user.token,
            });
            if (r.status === 200 && ledger.has(id)) {
              ledger.set(id, title);
              acknowledged++;
            }
          } else if (op < 0.85) {
            const id = pick(ids);
            pendingDeletes.add(id);
            const r = await request(server.port, 'DELETE', `/api/todos/${id}`, {
              token: user.token,
            });
            if (r.status === 204) {
              pendingDeletes.delete(id);
              ledger.delete(id);
              deleted.add(id);
              acknowledged++;
            }
          } else {
            // Refused: a group that does not exist. It must never appear.
            const title = `r${cycle}-${i}`;
            const r = await request(server.port, 'POST', '/api/todos', {
              body: { title, groupId: 2_000_000_000 } satisfies CreateTodoBody,
              token: user.token,
            });
            if (r.status === 400) refused.add(title);
            else if (r.status) failures.push(`refused create answered ${r.status}`);
          }
        }
      };
      const workers = Array.from({ length: 6 }, worker);
      await sleep(150 + random() * 350);
      killed = true;
      server.child.kill('SIGKILL');
      await server.exited;
      await Promise.all(workers);

      server = await startServer(database.env); // the database opens
      await login(server.port, user);
      const list = await request<Todo[]>(server.port, 'GET', '/api/todos', { token: user.token });
      const totals = await request<TotalStatistics>(server.port, 'GET', '/api/statistics/total', {
        token: user.token,
      });
      const present = new Map(bodyOf(list).map((t) => [t.id, t.title] as const));
      for (const [id, title] of ledger) {
        checked++;
        const now = present.get(id);
        const allowed = [title, ...(pendingUpdates.get(id) ?? [])];
        if (now === undefined && pendingDeletes.has(id)) {
          ledger.delete(id);
          deleted.add(id);
          continue;
        }
        check(now !== undefined, `${kind} cycle ${cycle}: acknowledged todo ${id} lost`);
        check(
          now === undefined || allowed.includes(now),
          `${kind} cycle ${cycle}: todo ${id} is "${now}", expected one of ${allowed.join(',')}`,
        );
        if (now !== undefined) ledger.set(id, now);
      }
      for (const id of deleted) {
        checked++;
        check(!present.has(id), `${kind} cycle ${cycle}: deleted todo ${id} is back`);
      }
      for (const [id, title] of present) {
        check(!refused.has(title), `${kind} cycle ${cycle}: refused write "${title}" is present`);
        if (!ledger.has(id)) {
          // Committed but unanswered when the process died: allowed, and from now on known.
          check(
            pendingCreates.has(title),
            `${kind} cycle ${cycle}: unexpected todo ${id} "${title}"`,
          );
          ledger.set(id, title);
          unanswered++;
        }
      }
      checked += refused.size;
      // Each create and delete writes its statistics event in the same transaction.
      const { todosCreated, todosDeleted } = bodyOf(totals);
      check(
        todosCreated === present.size + todosDeleted,
        `${kind} cycle ${cycle}: half-applied transaction (created ${todosCreated}, present ${present.size}, deleted ${todosDeleted})`,
      );
      process.stdout.write(
        `  kill ${cycle}/${KILLS}: ${present.size} todos present, ${acknowledged} writes acknowledged so far\r`,
      );
    }
    const exit = await stopServer(server);
    check(exit.code === 0, `${kind}: clean exit after the last restart (${JSON.stringify(exit)})`);
    if (kind === 'sqlite') {
      // The server's own integrity check, loaded only on this path: the harness otherwise runs no
      // server code in its own process.
      const { checkSqliteFile } = await import('../../dist/db/backup.js');
      checkSqliteFile(path.join(database.dataDir, 'tally.db'));
    }
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
  results[`durability_${kind}`] = {
    kills: KILLS,
    acknowledgedWrites: acknowledged,
    refusedWrites: refused.size,
    committedButUnanswered: unanswered,
    checks: checked,
  };
  console.info(
    `\n  ${KILLS} kills survived; ${acknowledged} acknowledged writes, ${refused.size} refused, ${checked} checks`,
  );
}
