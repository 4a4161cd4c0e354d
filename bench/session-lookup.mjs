// `node bench/session-lookup.mjs` (after `npm run build`): the per-request lookup of the
// authentication hook before and after access tokens were bound to their session (decision 045):
// users by id against sessions ⋈ users (decision 045) and the open session by its primary key
// alone (decision 065, what the hook does now), prepared as the hook prepares them, CPU µs per
// call over 20,000 calls, three alternating rounds, on SQLite and PostgreSQL (loopback).
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '../server/dist/db/connection.js';
import { migrateToLatest } from '../server/dist/db/migrate.js';
import { preparedQuery } from '../server/dist/db/prepared.js';
import { rmSync } from 'node:fs';
import pg from 'pg';

const byId = preparedQuery((db, p) =>
  db.selectFrom('users').select(['id', 'username']).where('id', '=', p('id')),
);
const sessionOnly = preparedQuery((db, p) =>
  db
    .selectFrom('sessions')
    .select('sessions.user_id')
    .where('sessions.id', '=', p('sessionId'))
    .where('sessions.user_id', '=', p('userId'))
    .where('sessions.ended_at', 'is', null)
    .where('sessions.expires_at', '>', p('now')),
);
const bySession = preparedQuery((db, p) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.username'])
    .where('sessions.id', '=', p('sessionId'))
    .where('sessions.user_id', '=', p('userId'))
    .where('sessions.ended_at', 'is', null)
    .where('sessions.expires_at', '>', p('now')),
);

async function run(label, options) {
  const handle = connect(options);
  await migrateToLatest(handle.db, handle.dialect);
  const db = handle.db;
  const users = [];
  for (let i = 0; i < 1000; i++) {
    const { id } = await db
      .insertInto('users')
      .values({
        username: `u${i}`,
        username_lower: `u${i}`,
        email: `u${i}@x`,
        email_lower: `u${i}@x`,
        password_hash: null,
        google_subject: null,
        created_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sid = randomUUID();
    await db
      .insertInto('sessions')
      .values({
        id: sid,
        user_id: id,
        created_at: 0,
        last_used_at: 0,
        expires_at: Date.now() + 1e9,
        ended_at: null,
        user_agent: null,
      })
      .execute();
    users.push({ id, sid });
  }
  const N = 20000;
  const measure = async (f) => {
    for (let i = 0; i < 2000; i++) await f(i);
    const c = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < N; i++) await f(i);
    const d = process.cpuUsage(c);
    return {
      cpu: ((d.user + d.system) / N).toFixed(1),
      wall: (((performance.now() - t) * 1000) / N).toFixed(1),
    };
  };
  const res = [];
  for (let round = 0; round < 3; round++) {
    res.push(['users by id', await measure((i) => byId(db, { id: users[i % 1000].id }))]);
    res.push([
      'session ⋈ users',
      await measure((i) =>
        bySession(db, {
          sessionId: users[i % 1000].sid,
          userId: users[i % 1000].id,
          now: Date.now(),
        }),
      ),
    ]);
    res.push([
      'session by key',
      await measure((i) =>
        sessionOnly(db, {
          sessionId: users[i % 1000].sid,
          userId: users[i % 1000].id,
          now: Date.now(),
        }),
      ),
    ]);
  }
  for (const [name, r] of res)
    console.log(label, name.padEnd(16), 'CPU µs/call', r.cpu, 'wall µs/call', r.wall);
  await db.destroy();
}
const dir = path.join(tmpdir(), 'tally-bench-session-lookup');
rmSync(dir, { recursive: true, force: true });
await run('sqlite  ', { databaseUrl: null, dataDir: dir });
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query('drop database if exists tally_bench_session_lookup with (force)');
await admin.query('create database tally_bench_session_lookup');
await admin.end();
await run('postgres', {
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/tally_bench_session_lookup',
  dataDir: dir,
  poolSize: 5,
});
const admin2 = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin2.connect();
await admin2.query('drop database if exists tally_bench_session_lookup with (force)');
await admin2.end();
