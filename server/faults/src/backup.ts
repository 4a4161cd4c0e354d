// backup: `db:backup` while writing, restore, and the acknowledged data is back.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { CreateTodoBody, Todo } from '@tally/contract';
import { freshDatabase } from './lib/database.js';
import { bodyOf, request } from './lib/http.js';
import { check, results } from './lib/report.js';
import { startServer, stopServer } from './lib/server.js';
import { root, type DatabaseKind } from './lib/settings.js';
import { login, signUp } from './lib/users.js';

export async function backup(kind: DatabaseKind): Promise<void> {
  console.info(`\n== backup and restore on ${kind}`);
  const database = await freshDatabase(kind, 'backup');
  let server = await startServer(database.env);
  try {
    const user = await signUp(server.port);
    for (let i = 0; i < 50; i++) {
      await request(server.port, 'POST', '/api/todos', {
        body: { title: `kept ${i}` } satisfies CreateTodoBody,
        token: user.token,
      });
    }
    let writing = true;
    let during = 0;
    const writer = (async () => {
      while (writing) {
        const r = await request(server.port, 'POST', '/api/todos', {
          body: { title: `during ${during}` } satisfies CreateTodoBody,
          token: user.token,
        });
        if (r.status === 201) during++;
      }
    })();
    const file = path.join(database.dataDir, kind === 'sqlite' ? 'backup.db' : 'backup.dump');
    const env = { ...process.env, ...database.env };
    const run = (args: string[]) =>
      spawnSync(process.execPath, [path.join(root, 'server/bin/tally.mjs'), ...args], {
        env,
        encoding: 'utf8',
      });
    const made = run(['backup', file]);
    writing = false;
    await writer;
    check(made.status === 0, `${kind}: db:backup failed: ${made.stderr}`);
    await request(server.port, 'POST', '/api/todos', {
      body: { title: 'after backup' } satisfies CreateTodoBody,
      token: user.token,
    });
    await stopServer(server);
    const restored = run(['restore', file]);
    check(restored.status === 0, `${kind}: db:restore failed: ${restored.stderr}`);
    server = await startServer(database.env);
    await login(server.port, user);
    const titles = bodyOf(
      await request<Todo[]>(server.port, 'GET', '/api/todos', { token: user.token }),
    ).map((t) => t.title);
    for (let i = 0; i < 50; i++)
      check(titles.includes(`kept ${i}`), `${kind}: "kept ${i}" missing after restore`);
    check(!titles.includes('after backup'), `${kind}: a write after the backup came back`);
    results[`backup_${kind}`] = { writesDuringBackup: during, restoredTodos: titles.length };
    console.info(
      `  backup taken under ${during} concurrent writes; restore gave back ${titles.length} todos`,
    );
    await stopServer(server);
  } finally {
    server.child.kill('SIGKILL');
    await database.cleanup();
  }
}
