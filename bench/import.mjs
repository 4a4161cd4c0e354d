// Times a 10,000-row import (docs/decisions/051-import-and-export.md: budget 10 s) on SQLite and
// PostgreSQL, through the built app's POST /api/import (inject: multipart parsing included, no
// socket). Run by hand after `npx tsc -b contract server`:
//   node bench/import.mjs [--dialects=sqlite,postgres] [--rows=10000]
// PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres) must be able to
// create and drop a schema. Prints one line per dialect, format and step; writes nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const dist = new URL('../server/dist/', import.meta.url);
const { buildApp } = await import(new URL('app.js', dist).href);
const { loadConfig } = await import(new URL('config.js', dist).href);
const { connect } = await import(new URL('db/connection.js', dist).href);
const { migrateToLatest } = await import(new URL('db/migrate.js', dist).href);

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const dialects = arg('dialects', 'sqlite,postgres').split(',');
const ROWS = Number(arg('rows', '10000'));
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const quote = (cell) => `"${String(cell).replace(/"/g, '""')}"`;

/** A TickTick backup of ROWS tasks: 12 lists, due dates, repeats, a quarter completed. */
function ticktick() {
  const header = [
    'Folder Name',
    'List Name',
    'Title',
    'Kind',
    'Tags',
    'Content',
    'Is Check list',
    'Start Date',
    'Due Date',
    'Reminder',
    'Repeat',
    'Priority',
    'Status',
    'Created Time',
    'Completed Time',
    'Order',
    'Timezone',
    'Is All Day',
    'taskId',
  ];
  const rows = Array.from({ length: ROWS }, (_, i) =>
    [
      '',
      `List ${i % 12}`,
      `Task ${i} with a title of ordinary length`,
      'TEXT',
      '',
      i % 3 === 0 ? `Notes for task ${i}, with a comma and "quotes"` : '',
      'N',
      '',
      i % 2 === 0 ? '2026-04-01T08:00:00+0000' : '',
      '',
      i % 10 === 0 ? 'RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TH' : '',
      '0',
      i % 4 === 0 ? '2' : '0',
      `2025-${String((i % 12) + 1).padStart(2, '0')}-01T09:00:00+0000`,
      i % 4 === 0 ? '2026-02-01T10:00:00+0000' : '',
      i,
      'Europe/Berlin',
      'false',
      `bench${i}`,
    ]
      .map(quote)
      .join(','),
  );
  return ['"Date: 2026-03-08+0000"', '"Version: 7.2"', header.map(quote).join(','), ...rows].join(
    '\n',
  );
}

/** A Todoist template of ROWS tasks in 10 sections, with natural-language dates. */
function todoist() {
  const dates = [
    '',
    'tomorrow',
    'every day',
    'every mon, fri at 9am',
    '2026-05-01',
    'Oct 9 2026 10:00',
  ];
  const lines = [
    'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE',
  ];
  for (let i = 0; i < ROWS; i++) {
    if (i % (ROWS / 10) === 0) lines.push(`section,Section ${i / (ROWS / 10)},,,,,,,,`);
    lines.push(
      `task,Task ${i},${i % 3 === 0 ? `"Notes, ${i}"` : ''},4,1,Bench (1),,"${dates[i % dates.length]}",en,Europe/Berlin`,
    );
  }
  return lines.join('\r\n');
}

/** Google Takeout's Tasks.json of ROWS tasks in 10 lists, a quarter completed, due dates. */
function googleTasks() {
  const lists = Array.from({ length: 10 }, (_, l) => ({
    kind: 'tasks#taskList',
    id: `list${l}`,
    title: `List ${l}`,
    items: Array.from({ length: ROWS / 10 }, (_, i) => ({
      kind: 'tasks#task',
      id: `task-${l}-${i}`,
      title: `Task ${l}-${i}`,
      notes: i % 3 === 0 ? `Notes ${i}` : undefined,
      status: i % 4 === 0 ? 'completed' : 'needsAction',
      completed: i % 4 === 0 ? '2025-06-01T10:00:00.000Z' : undefined,
      due: i % 2 === 0 ? '2026-05-01T00:00:00.000Z' : undefined,
      updated: '2025-06-01T10:00:00.000Z',
    })),
  }));
  return JSON.stringify({ kind: 'tasks#taskLists', items: lists });
}

/** An iCalendar task list of ROWS VTODOs: zoned due times, repeats, categories. */
function ics() {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Bench//EN', 'X-WR-CALNAME:Bench'];
  for (let i = 0; i < ROWS; i++) {
    lines.push(
      'BEGIN:VTODO',
      `UID:bench-${i}`,
      'DTSTAMP:20250601T100000Z',
      `SUMMARY:Task ${i}`,
      ...(i % 3 === 0 ? [`DESCRIPTION:Notes\\, ${i}`] : []),
      ...(i % 2 === 0 ? ['DUE;TZID=Europe/Berlin:20260501T093000'] : []),
      ...(i % 5 === 0 ? ['RRULE:FREQ=WEEKLY;BYDAY=MO,FR'] : []),
      'CATEGORIES:work,bench',
      ...(i % 4 === 0 ? ['STATUS:COMPLETED', 'COMPLETED:20250601T100000Z'] : []),
      'END:VTODO',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

/** Any CSV of ROWS rows, its columns found by their headers. */
function anyCsv() {
  const lines = ['Task,Notes,List,Due,Done,Labels,Priority'];
  for (let i = 0; i < ROWS; i++) {
    lines.push(
      `Task ${i},${i % 3 === 0 ? `"Notes, ${i}"` : ''},List ${i % 10},${i % 2 === 0 ? '2026-05-01' : ''},${i % 4 === 0 ? 'yes' : 'no'},work bench,${i % 4}`,
    );
  }
  return lines.join('\r\n');
}

/** A Tally export (version 1) of ROWS todos in 8 groups, a fifth completed, with completions. */
function tally() {
  const groups = Array.from({ length: 8 }, (_, i) => ({
    id: 100 + i,
    name: `Group ${i}`,
    color: '#3B82F6',
    createdAt: '2025-01-01T00:00:00.000Z',
  }));
  const todos = Array.from({ length: ROWS }, (_, i) => ({
    id: 1000 + i,
    title: `Todo ${i}`,
    description: i % 3 === 0 ? `Notes for ${i}` : null,
    groupId: i % 5 === 0 ? null : 100 + (i % 8),
    completed: i % 5 === 1,
    dueDate: i % 2 === 0 ? '2026-04-01' : null,
    dueTime: i % 4 === 0 ? '09:30' : null,
    repeat: i % 10 === 0 ? { every: 1, unit: 'week', weekdays: ['mon'], from: 'due' } : null,
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    updatedAt: new Date(Date.UTC(2025, 6, 1) + i * 60_000).toISOString(),
  }));
  const completions = todos
    .filter((todo) => todo.completed)
    .map((todo) => ({
      todoId: todo.id,
      groupId: todo.groupId,
      createdAt: todo.createdAt,
      completedAt: todo.updatedAt,
      dueDate: todo.dueDate,
      onTime: todo.dueDate === null ? null : true,
    }));
  return JSON.stringify(
    { version: 1, exportedAt: new Date().toISOString(), groups, todos, completions },
    null,
    2,
  );
}

async function form(format, dryRun, text) {
  const data = new FormData();
  data.append('format', format);
  data.append('dryRun', String(dryRun));
  data.append('file', new Blob([text]), 'file.csv');
  const encoded = new Response(data);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') },
  };
}

async function database(dialect) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tally-bench-import-'));
  let schema;
  if (dialect === 'postgres') {
    schema = `bench_import_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  const handle = connect({
    databaseUrl: dialect === 'postgres' ? pgUrl : null,
    dataDir,
    pgSchema: schema,
    poolSize: 5,
  });
  await migrateToLatest(handle.db, handle.dialect, schema);
  return {
    handle,
    dataDir,
    async drop() {
      await handle.db.destroy();
      if (schema) {
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const files = {
  'tally-json': tally(),
  'ticktick-csv': ticktick(),
  'todoist-csv': todoist(),
  'google-tasks-json': googleTasks(),
  ics: ics(),
  csv: anyCsv(),
};
const sizes = Object.entries(files).map(([f, t]) => `${f} ${(t.length / 1e6).toFixed(1)} MB`);
console.info(`${ROWS} rows each: ${sizes.join(', ')}; load average ${loadavg()[0].toFixed(1)}`);
for (const dialect of dialects) {
  const db = await database(dialect);
  const app = await buildApp({
    config: {
      ...loadConfig({}),
      dataDir: db.dataDir,
      webDistDir: null,
      authRateLimitPerMinute: 1e6,
    },
    database: db.handle,
    jwtSecret: randomBytes(32).toString('hex'),
    closeDatabase: false,
  });
  await app.ready();
  try {
    for (const [format, text] of Object.entries(files)) {
      const username = `bench_${randomBytes(3).toString('hex')}`;
      const registered = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        // A random password: registration refuses common ones and ones built on the username.
        payload: {
          username,
          email: `${username}@example.com`,
          password: randomBytes(12).toString('base64url'),
        },
      });
      if (registered.statusCode !== 201) throw new Error(`register: ${registered.body}`);
      const token = registered.json().accessToken;
      for (const [step, dryRun] of [
        ['dry run', true],
        ['import', false],
        ['again', false],
      ]) {
        const { payload, headers } = await form(format, dryRun, text);
        const started = process.hrtime.bigint();
        const response = await app.inject({
          method: 'POST',
          url: '/api/import',
          payload,
          headers: { ...headers, authorization: `Bearer ${token}`, 'x-time-zone': 'Europe/Berlin' },
        });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const report = response.json();
        const created = report.todos?.created ?? response.body;
        console.info(
          `${dialect.padEnd(8)} ${format.padEnd(12)} ${step.padEnd(8)} ${(ms / 1000).toFixed(2).padStart(6)} s  (${response.statusCode}, created ${created})`,
        );
      }
    }
  } finally {
    await app.close();
    await db.drop();
  }
}
