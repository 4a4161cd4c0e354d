// The raw reference for GET /api/todos (bench/list-budget.mjs): the least a correct server does
// to answer the list, without a framework. node:http, the raw driver (bench/lib/sql.mjs: cached
// statements on SQLite, a pool on PostgreSQL), the bearer JWT checked with node:crypto, the
// token's session read by its primary key as Tally reads it (decision 065), the user's todos
// newest first and their tags from the link table in a second read, each todo's fields as Tally
// answers them (todos/rows.ts, its reminders read from their column), written with
// JSON.stringify. No validation, logging, headers or hooks. Env: DIALECT (sqlite|postgres),
// DATABASE_FILE or DATABASE_URL, JWT_SECRET, PORT.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { compareText } from '../../contract/dist/todo-shape.js';
import { openDatabase } from '../lib/sql.mjs';

const db = openDatabase({
  dialect: process.env.DIALECT,
  file: process.env.DATABASE_FILE,
  url: process.env.DATABASE_URL,
});
const secret = Buffer.from(process.env.JWT_SECRET);

/** The token's account and session, or null: HS256, unexpired, Tally's issuer and audience. */
function verifyJwt(token) {
  const [header, body, signature] = token.split('.');
  if (!header || !body || !signature) return null;
  const expected = createHmac('sha256', secret).update(`${header}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
  if (
    typeof payload.exp !== 'number' ||
    payload.exp * 1000 <= Date.now() ||
    payload.iss !== 'tally' ||
    payload.aud !== 'tally-web' ||
    !Number.isSafeInteger(payload.uid) ||
    typeof payload.sid !== 'string'
  ) {
    return null;
  }
  return { id: payload.uid, sessionId: payload.sid };
}

const LIVE_SESSION =
  'select "user_id" from "sessions" where "id" = ? and "user_id" = ? and "ended_at" is null and "expires_at" > ?';
const TODOS =
  'select "id", "title", "description", "group_id", "completed", "created_at", "due_date", "due_time", "repeat", "reminder_minutes", "priority", "parent_id", "start_date", "duration_minutes", "position", "custom_repeat", "version" from "todos" where "user_id" = ? order by "created_at" desc, "id" desc';
const TAG_LINKS =
  'select "todo_tags"."todo_id", "tags"."name" from "tags" inner join "todo_tags" on "todo_tags"."tag_id" = "tags"."id" where "tags"."user_id" = ?';

async function listTodos(userId) {
  const rows = await db.query(TODOS, [userId]);
  const tags = new Map();
  for (const { todo_id: id, name } of await db.query(TAG_LINKS, [userId])) {
    const names = tags.get(id);
    if (names) names.push(name);
    else tags.set(id, [name]);
  }
  for (const names of tags.values()) names.sort(compareText);
  return rows.map((row) => {
    const todo = {
      id: row.id,
      title: row.title,
      description: row.description,
      groupId: row.group_id,
      completed: row.completed === 1,
      created: new Date(row.created_at).toISOString(),
      dueDate: row.due_date,
      dueTime: row.due_time,
      repeat: row.repeat === null ? null : JSON.parse(row.repeat),
      remindMinutesBefore: null,
      reminders: [],
      tags: tags.get(row.id) ?? [],
      priority: row.priority,
      parentId: row.parent_id,
      startDate: row.start_date,
      durationMinutes: row.duration_minutes,
      position: Number(row.position),
      version: row.version,
    };
    if (row.custom_repeat !== null) todo.customRepeat = row.custom_repeat;
    if (row.reminder_minutes !== null) {
      todo.reminders = JSON.parse(row.reminder_minutes);
      todo.remindMinutesBefore = todo.reminders[0] ?? null;
    }
    return todo;
  });
}

function send(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

const server = createServer((request, response) => {
  if (request.url === '/api/health') return send(response, 200, { status: 'ok' });
  if (request.method !== 'GET' || request.url !== '/api/todos') {
    return send(response, 404, { error: 'Not found' });
  }
  const header = request.headers.authorization ?? '';
  const claimed = header.startsWith('Bearer ') ? verifyJwt(header.slice(7)) : null;
  if (!claimed) return send(response, 401, { error: 'Invalid token' });
  db.query(LIVE_SESSION, [claimed.sessionId, claimed.id, Date.now()])
    .then(async ([session]) => {
      if (!session) return send(response, 401, { error: 'Invalid token' });
      send(response, 200, await listTodos(claimed.id));
    })
    .catch((error) => send(response, 500, { error: error.message }));
});
server.listen(Number(process.env.PORT), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.close(() => void db.close().finally(() => process.exit(0))));
}
