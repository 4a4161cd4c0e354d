// Seeds a fresh benchmark database directly through the driver (no HTTP, no hashing per user):
// Tally's own migrations create the schema, then users, groups, todos and statistics events are
// inserted in bulk. Both dialects get the same rows. Each user gets one open session when the
// schema has sessions (decision 045): access tokens name it (`sid`), or Tally answers 401.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { hash } from '@node-rs/argon2';
import { openDatabase } from './sql.mjs';

/** This tree's built server (server/dist); another checkout's for a build-against-build run. */
const DEFAULT_SERVER_DIST = fileURLToPath(new URL('../../server/dist', import.meta.url));

/** Tally's own connect() and migrateToLatest() from the build in `serverDist`. */
async function serverModules(serverDist = DEFAULT_SERVER_DIST) {
  const load = (file) => import(pathToFileURL(path.join(serverDist, file)).href);
  const [{ connect }, { migrateToLatest }] = await Promise.all([
    load('db/connection.js'),
    load('db/migrate.js'),
  ]);
  return { connect, migrateToLatest };
}

export const PASSWORD = 'bench-password-1';
const DAY = 86_400_000;
const GROUP_COLORS = ['#3B82F6', '#EF4444', '#10B981', '#F59E0B', '#8B5CF6'];
/** Event mix: todos are created, updated and completed more often than groups change. */
const EVENT_MIX = [
  'todosCreated',
  'todosCreated',
  'todosCreated',
  'todosCreated',
  'todosUpdated',
  'todosUpdated',
  'todosUpdated',
  'todosCompleted',
  'todosCompleted',
  'todosCompleted',
  'logins',
  'logins',
  'tokensGenerated',
  'tokensGenerated',
  'refreshTokensCreated',
  'todosDeleted',
  'groupsCreated',
  'groupsUpdated',
  'groupsDeleted',
  'registrations',
];

/**
 * Creates an empty database (SQLite file in `dataDir`, or the PostgreSQL database `dbName`
 * through `adminUrl`) and runs the migrations of the Tally build in `serverDist` (default: this
 * tree's) on it. Returns what a server needs to reach it.
 */
export async function createDatabase({ dialect, dataDir, adminUrl, dbName, serverDist }) {
  const { connect, migrateToLatest } = await serverModules(serverDist);
  if (dialect === 'sqlite') {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    const handle = connect({ databaseUrl: null, dataDir });
    await migrateToLatest(handle.db, handle.dialect);
    await handle.db.destroy();
    return { dialect, file: path.join(dataDir, 'tally.db'), databaseUrl: null, dataDir };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const handle = connect({ databaseUrl, dataDir });
  await migrateToLatest(handle.db, handle.dialect);
  await handle.db.destroy();
  return { dialect, file: null, databaseUrl, dataDir };
}

export async function dropDatabase({ dialect, dataDir, adminUrl, dbName }) {
  if (dialect === 'sqlite') {
    rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}

/**
 * @typedef {{ username: string, groups: number, todos: number, events: number, planned?: boolean }} UserPlan
 * `taskModel`: tags, priorities, subtasks and positions too (seedTaskModel).
 * `planned`: a third of the user's todos get a due date from 10 days ago to 10 days on (UTC
 * days), every other one of those a time, and every fourth of those a weekly repeat.
 * Inserts the planned users with their groups, todos and events, and one open session each when
 * the schema has sessions; returns username → { id, sessionId, groupIds, todoIds }.
 */
export async function seed(target, plans, now = Date.now()) {
  const db = openDatabase({
    dialect: target.dialect,
    file: target.file ?? undefined,
    url: target.databaseUrl ?? undefined,
  });
  const passwordHash = await hash(PASSWORD, {
    algorithm: 2,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });
  const users = new Map();
  try {
    if (db.dialect === 'sqlite') seedSqlite(db.raw, plans, passwordHash, now, users);
    else await seedPostgres(db, plans, passwordHash, now, users);
    const hasSessions =
      db.dialect === 'sqlite'
        ? (await db.query("select name from sqlite_master where name = 'sessions'")).length > 0
        : (await db.query("select to_regclass('sessions') as t"))[0].t !== null;
    if (hasSessions) await seedSessions(db, users, now);
    const hasPlanning =
      db.dialect === 'sqlite'
        ? db.raw
            .prepare('select name from pragma_table_info(?)')
            .all('todos')
            .some((column) => column.name === 'due_date')
        : (
            await db.query(
              "select 1 from information_schema.columns where table_name = 'todos' and column_name = 'due_date' and table_schema = current_schema()",
            )
          ).length > 0;
    if (hasPlanning) await seedPlanning(db, plans, users, now);
    const hasTaskModel =
      db.dialect === 'sqlite'
        ? db.raw
            .prepare('select name from pragma_table_info(?)')
            .all('todos')
            .some((column) => column.name === 'priority')
        : (
            await db.query(
              "select 1 from information_schema.columns where table_name = 'todos' and column_name = 'priority' and table_schema = current_schema()",
            )
          ).length > 0;
    if (hasTaskModel) await seedTaskModel(db, plans, users, now);
    const hasTotals =
      db.dialect === 'sqlite'
        ? (await db.query("select name from sqlite_master where name = 'statistic_totals'"))
            .length > 0
        : (await db.query("select to_regclass('statistic_totals') as t"))[0].t !== null;
    if (hasTotals) {
      await db.query('delete from statistic_totals');
      await db.query(
        'insert into statistic_totals (user_id, type, count) select user_id, type, count(*) from statistic_events group by user_id, type',
      );
    }
    // PostgreSQL plans from statistics that autovacuum would gather in a live database. SQLite
    // gets none: Tally never runs ANALYZE, and with statistics in sqlite_stat4 (better-sqlite3
    // is built with STAT4) SQLite re-prepares every statement that looks a bound value up in an
    // index on each new binding, ~8 µs per query (decision 063).
    if (db.dialect === 'postgres') await db.query('analyze');
  } finally {
    await db.close();
  }
  return users;
}

/** One open session per user, as a sign-in makes (30 days, the default SESSION_MAX_DAYS). */
async function seedSessions(db, users, now) {
  const rows = [...users.values()].map((user) => {
    user.sessionId = randomUUID();
    return [user.sessionId, user.id, now, now, now + 30 * DAY, null, 'bench'];
  });
  const insert =
    'insert into sessions (id, user_id, created_at, last_used_at, expires_at, ended_at, user_agent) values ';
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await db.query(insert + chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', '), chunk.flat());
  }
}

const dateOf = (instant) => new Date(instant).toISOString().slice(0, 10);
const WEEKLY = JSON.stringify({ unit: 'week', every: 1, from: 'due' });

/** Due dates, times and repeats on a third of the planned users' todos (when the schema has them). */
async function seedPlanning(db, plans, users, now) {
  for (const plan of plans.filter((p) => p.planned)) {
    const { todoIds } = users.get(plan.username);
    const updates = [];
    todoIds.forEach((id, i) => {
      if (i % 3 !== 0) return;
      const k = i / 3;
      updates.push([
        dateOf(now + ((k % 21) - 10) * DAY),
        k % 2 === 0 ? `${String(8 + (k % 10)).padStart(2, '0')}:30` : null,
        k % 4 === 0 ? WEEKLY : null,
        id,
      ]);
    });
    if (db.dialect === 'sqlite') {
      const statement = db.raw.prepare(
        'update todos set due_date = ?, due_time = ?, repeat = ? where id = ?',
      );
      db.raw.transaction(() => updates.forEach((row) => statement.run(row)))();
    } else {
      for (const row of updates) {
        await db.query('update todos set due_date = ?, due_time = ?, repeat = ? where id = ?', row);
      }
    }
  }
}

const TAG_COLORS = ['#EF4444', '#3B82F6', '#10B981', '#F59E0B'];

/**
 * The task model on the users with `taskModel`: 12 tags (4 coloured) on about two todos in three
 * (one to three each), every priority in turn, one todo in five a subtask (2,000 of 10,000) under
 * one of the first 200 others (one in ten of them a level deeper), and a manual position for each.
 */
async function seedTaskModel(db, plans, users, now) {
  for (const plan of plans.filter((p) => p.taskModel)) {
    const { id: userId, todoIds } = users.get(plan.username);
    const tagIds = [];
    for (let i = 0; i < 12; i += 1) {
      const [row] = await db.query(
        'insert into tags (user_id, name, name_lower, color, created_at) values (?, ?, ?, ?, ?) returning id',
        [userId, `tag${i}`, `tag${i}`, TAG_COLORS[i] ?? null, now],
      );
      tagIds.push(row.id);
    }
    const links = [];
    const updates = [];
    const subtasks = Math.round(todoIds.length / 5);
    const parents = todoIds.slice(0, Math.min(200, Math.max(1, todoIds.length - subtasks)));
    todoIds.forEach((id, i) => {
      for (let k = 0; k < i % 3; k += 1) links.push([id, tagIds[(i + k * 5) % tagIds.length]]);
      const first = todoIds.length - subtasks;
      const deeper = i > first && i % 10 === 0;
      const parent = i < first ? null : deeper ? todoIds[i - 1] : parents[i % parents.length];
      updates.push([i % 4, parent === id ? null : parent, -i, id]);
    });
    for (let i = 0; i < links.length; i += 500) {
      const chunk = links.slice(i, i + 500);
      await db.query(
        `insert into todo_tags (todo_id, tag_id) values ${chunk.map(() => '(?, ?)').join(', ')}`,
        chunk.flat(),
      );
    }
    const update = 'update todos set priority = ?, parent_id = ?, position = ? where id = ?';
    if (db.dialect === 'sqlite') {
      const statement = db.raw.prepare(update);
      db.raw.transaction(() => updates.forEach((row) => statement.run(row)))();
    } else {
      for (const row of updates) await db.query(update, row);
    }
  }
}

const titleOf = (i) => `Todo number ${i}: water the plants and call the bank`;
const descriptionOf = (i) =>
  i % 2 === 0 ? `Details for todo ${i}, a sentence or two of description text.` : null;

function seedSqlite(sqlite, plans, passwordHash, now, users) {
  const insertUser = sqlite.prepare(
    'insert into users (username, username_lower, email, email_lower, password_hash, google_subject, created_at) values (?, ?, ?, ?, ?, null, ?) returning id',
  );
  const insertGroup = sqlite.prepare(
    'insert into todo_groups (user_id, name, name_lower, color, created_at) values (?, ?, ?, ?, ?) returning id',
  );
  const insertTodo = sqlite.prepare(
    'insert into todos (user_id, group_id, title, description, completed, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?) returning id',
  );
  const insertEvent = sqlite.prepare(
    'insert into statistic_events (user_id, type, occurred_at) values (?, ?, ?)',
  );
  sqlite.transaction(() => {
    for (const plan of plans) {
      const lower = plan.username.toLowerCase();
      const { id } = insertUser.get(
        plan.username,
        lower,
        `${lower}@bench.example`,
        `${lower}@bench.example`,
        passwordHash,
        now - 800 * DAY,
      );
      const groupIds = [];
      for (let g = 0; g < plan.groups; g++) {
        const name = `Group ${g + 1}`;
        groupIds.push(
          insertGroup.get(id, name, name.toLowerCase(), GROUP_COLORS[g % 5], now - (400 - g) * DAY)
            .id,
        );
      }
      const todoIds = [];
      for (let i = 0; i < plan.todos; i++) {
        const created = now - (plan.todos - i) * 60_000;
        todoIds.push(
          insertTodo.get(
            id,
            groupIds.length ? groupIds[i % groupIds.length] : null,
            titleOf(i),
            descriptionOf(i),
            i % 3 === 0 ? 1 : 0,
            created,
            created,
          ).id,
        );
      }
      const span = 730 * DAY;
      for (let i = 0; i < plan.events; i++) {
        insertEvent.run(
          id,
          EVENT_MIX[i % EVENT_MIX.length],
          now - span + Math.floor((i * span) / plan.events),
        );
      }
      users.set(plan.username, { id, groupIds, todoIds });
    }
  })();
}

async function seedPostgres(db, plans, passwordHash, now, users) {
  const pool = db.raw;
  for (const plan of plans) {
    const lower = plan.username.toLowerCase();
    const [{ id }] = (
      await pool.query(
        'insert into users (username, username_lower, email, email_lower, password_hash, google_subject, created_at) values ($1, $2, $3, $3, $4, null, $5) returning id',
        [plan.username, lower, `${lower}@bench.example`, passwordHash, now - 800 * DAY],
      )
    ).rows;
    const groupIds = [];
    for (let g = 0; g < plan.groups; g++) {
      const name = `Group ${g + 1}`;
      const { rows } = await pool.query(
        'insert into todo_groups (user_id, name, name_lower, color, created_at) values ($1, $2, $3, $4, $5) returning id',
        [id, name, name.toLowerCase(), GROUP_COLORS[g % 5], now - (400 - g) * DAY],
      );
      groupIds.push(rows[0].id);
    }
    let todoIds = [];
    if (plan.todos > 0) {
      const { rows } = await pool.query(
        `insert into todos (user_id, group_id, title, description, completed, created_at, updated_at)
         select $1,
           case when cardinality($2::int[]) = 0 then null else ($2::int[])[1 + i % cardinality($2::int[])] end,
           'Todo number ' || i || ': water the plants and call the bank',
           case when i % 2 = 0 then 'Details for todo ' || i || ', a sentence or two of description text.' end,
           case when i % 3 = 0 then 1 else 0 end,
           $3::bigint - ($4::bigint - i) * 60000, $3::bigint - ($4::bigint - i) * 60000
         from generate_series(0, $4::int - 1) as i order by i returning id`,
        [id, groupIds, now, plan.todos],
      );
      todoIds = rows.map((row) => row.id);
    }
    if (plan.events > 0) {
      const span = 730 * DAY;
      await pool.query(
        `insert into statistic_events (user_id, type, occurred_at)
         select $1, ($2::text[])[1 + i % cardinality($2::text[])],
           $3::bigint - $4::bigint + (i::bigint * $4::bigint) / $5::bigint
         from generate_series(0, $5::int - 1) as i`,
        [id, EVENT_MIX, now, span, plan.events],
      );
    }
    users.set(plan.username, { id, groupIds, todoIds });
  }
}
