// The reference: the least a correct server must do for each scenario, with bare Fastify and the
// raw driver. It verifies the bearer JWT (HS256 with node:crypto), reads the user through the
// token's session (the same lookup as Tally: the open session by its primary key, decisions 045 and 065), runs the same SQL as
// Tally on the same data, maps the rows to the same JSON and sends it with JSON.stringify. No
// validation library, no query builder, no plugins, no logger, no security headers.
// Env: DIALECT (sqlite|postgres), DATABASE_FILE or DATABASE_URL, JWT_SECRET, PORT.
import { createHmac, randomBytes, randomUUID, createHash, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import { verify as verifyArgon2 } from '@node-rs/argon2';
import { TZDate } from '@date-fns/tz';
import { searchText } from '../../server/dist/shared/search-text.js';
import { openDatabase } from '../lib/sql.mjs';

const db = openDatabase({
  dialect: process.env.DIALECT,
  file: process.env.DATABASE_FILE,
  url: process.env.DATABASE_URL,
});
const secret = Buffer.from(process.env.JWT_SECRET);
const app = Fastify({ logger: false });

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}
app.setErrorHandler((error, _request, reply) => {
  reply.code(error.status ?? 500).send({ error: error.message });
});

const b64 = (buffer) => buffer.toString('base64url');
function signJwt(sub, uid, sid) {
  const now = Math.floor(Date.now() / 1000);
  const header = b64(Buffer.from('{"alg":"HS256","typ":"JWT"}'));
  const body = b64(
    Buffer.from(
      JSON.stringify({
        roles: ['user'],
        uid,
        sid,
        sub,
        iss: 'tally',
        aud: 'tally-web',
        iat: now,
        exp: now + 900,
      }),
    ),
  );
  const signature = b64(createHmac('sha256', secret).update(`${header}.${body}`).digest());
  return `${header}.${body}.${signature}`;
}
function verifyJwt(token) {
  const [header, body, signature] = token.split('.');
  if (!header || !body || !signature) throw new HttpError(401, 'Invalid token');
  const expected = createHmac('sha256', secret).update(`${header}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new HttpError(401, 'Invalid token');
  }
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
  if (
    typeof payload.exp !== 'number' ||
    payload.exp * 1000 <= Date.now() ||
    payload.iss !== 'tally' ||
    payload.aud !== 'tally-web' ||
    typeof payload.sub !== 'string' ||
    !Number.isSafeInteger(payload.uid) ||
    typeof payload.sid !== 'string' ||
    payload.sid === ''
  ) {
    throw new HttpError(401, 'Invalid token');
  }
  return { id: payload.uid, username: payload.sub, sessionId: payload.sid };
}

// Tally's per-request lookup, as Kysely compiles it (plugins/authentication.ts, decision 065):
// the token's session, still open; the account is the token's.
const LIVE_SESSION =
  'select "sessions"."user_id" from "sessions" where "sessions"."id" = ? and "sessions"."user_id" = ? and "sessions"."ended_at" is null and "sessions"."expires_at" > ?';

async function authenticate(request) {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) throw new HttpError(401, 'Authentication required');
  const claimed = verifyJwt(header.slice(7));
  const [session] = await db.query(LIVE_SESSION, [claimed.sessionId, claimed.id, Date.now()]);
  if (!session) throw new HttpError(401, 'Invalid token');
  return claimed;
}

/** Whether the todos table has a column: an older build's schema (measured with --against) may not. */
async function todosHave(column) {
  const rows =
    process.env.DIALECT === 'sqlite'
      ? await db.query("select name from pragma_table_info('todos') where name = ?", [column])
      : await db.query(
          "select 1 from information_schema.columns where table_name = 'todos' and column_name = ? and table_schema = current_schema()",
          [column],
        );
  return rows.length > 0;
}
// Planning (due dates, repeats), reminders and search each added columns;
// the reference lists and writes todos as the build it stands beside does.
const PLANNED = await todosHave('due_date');
const REMINDS = await todosHave('remind_minutes_before');
// Several reminders per todo (migration 0030) replaced that column.
const SEVERAL_REMINDERS = await todosHave('reminder_minutes');
const SEARCHABLE = await todosHave('search_text');
// The task model: tags, priority, subtasks, start date and manual order (migration 0016).
const DETAILED = await todosHave('priority');
// A version on every todo and group, one more with every write (migration 0019).
const VERSIONED = await todosHave('version');

const SEARCH_COLUMN = SEARCHABLE ? ', "search_text"' : '';
const SEARCH_VALUE = SEARCHABLE ? ', ?' : '';
const SEARCH_SET = SEARCHABLE ? ', "search_text" = ?' : '';
const VERSION_SET = VERSIONED ? ', "version" = "version" + 1' : '';
const searchValues = (title, description) => (SEARCHABLE ? [searchText(title, description)] : []);

const TODO_COLUMNS = [
  '"id", "title", "description", "group_id", "completed", "created_at"',
  ...(PLANNED ? ['"due_date", "due_time", "repeat"'] : []),
  ...(REMINDS ? ['"remind_minutes_before"'] : []),
  ...(SEVERAL_REMINDERS ? ['"reminder_minutes"'] : []),
  ...(DETAILED ? ['"priority", "parent_id", "start_date", "position"'] : []),
  ...(VERSIONED ? ['"version"'] : []),
].join(', ');
function toTodo(row, tags) {
  const todo = {
    id: row.id,
    title: row.title,
    description: row.description,
    groupId: row.group_id,
    completed: row.completed === 1,
    created: new Date(row.created_at).toISOString(),
  };
  if (PLANNED) {
    todo.dueDate = row.due_date;
    todo.dueTime = row.due_time;
    todo.repeat = row.repeat === null ? null : JSON.parse(row.repeat);
  }
  if (REMINDS) todo.remindMinutesBefore = row.remind_minutes_before;
  if (SEVERAL_REMINDERS) {
    todo.reminders = row.reminder_minutes === null ? [] : JSON.parse(row.reminder_minutes);
    todo.remindMinutesBefore = todo.reminders[0] ?? null;
  }
  if (DETAILED) {
    todo.tags = tags?.get(row.id) ?? [];
    todo.priority = row.priority;
    todo.parentId = row.parent_id;
    todo.startDate = row.start_date;
    todo.position = Number(row.position);
  }
  if (VERSIONED) todo.version = row.version;
  return todo;
}

/** Tag links by todo id, each todo's names A-Z ignoring case, as Tally answers them. */
function groupTags(links) {
  const tags = new Map();
  for (const { todo_id: id, name } of links) {
    const list = tags.get(id);
    if (list) list.push(name);
    else tags.set(id, [name]);
  }
  for (const list of tags.values()) {
    list.sort((a, b) => {
      const x = a.toLowerCase();
      const y = b.toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  return tags;
}

/** The tags of the whole list (every link of the user's tags, one query), as Tally reads them. */
const tagsOfUser = async (userId) =>
  DETAILED
    ? groupTags(
        await db.query(
          'select "todo_tags"."todo_id", "tags"."name" from "tags" inner join "todo_tags" on "todo_tags"."tag_id" = "tags"."id" where "tags"."user_id" = ?',
          [userId],
        ),
      )
    : null;

/** The tags of some rows (a page, a view): their links, by todo id. */
async function tagsOfRows(rows) {
  if (!DETAILED || rows.length === 0) return null;
  const ids = rows.map((row) => row.id);
  return groupTags(
    await db.query(
      `select "todo_tags"."todo_id", "tags"."name" from "todo_tags" inner join "tags" on "tags"."id" = "todo_tags"."tag_id" where "todo_tags"."todo_id" in (${ids.map(() => '?').join(', ')})`,
      ids,
    ),
  );
}

async function recordEvents(query, userId, types, now) {
  const values = types.map(() => '(?, ?, ?)').join(', ');
  await query(
    `insert into "statistic_events" ("user_id", "type", "occurred_at") values ${values}`,
    types.flatMap((type) => [userId, type, now]),
  );
  const totals = types.map(() => '(?, ?, ?)').join(', ');
  await query(
    `insert into "statistic_totals" ("user_id", "type", "count") values ${totals} on conflict ("user_id", "type") do update set "count" = "statistic_totals"."count" + "excluded"."count"`,
    types.flatMap((type) => [userId, type, 1]),
  );
  if (!types.some((type) => type in HOURLY)) return;
  const columns = Object.values(HOURLY);
  const counts = Object.keys(HOURLY).map((type) => types.filter((t) => t === type).length);
  await query(
    `insert into "statistic_hours" ("user_id", "hour", ${columns.map((c) => `"${c}"`).join(', ')}) values (?, ?, ?, ?, ?, ?, ?) on conflict ("user_id", "hour") do update set ${columns.map((c) => `"${c}" = "statistic_hours"."${c}" + "excluded"."${c}"`).join(', ')}`,
    [userId, Math.floor(now / 3_600_000), ...counts],
  );
}

async function checkGroup(query, userId, groupId) {
  if (groupId === null) return;
  const rows = await query('select "id" from "todo_groups" where "id" = ? and "user_id" = ?', [
    groupId,
    userId,
  ]);
  if (rows.length === 0) throw new HttpError(400, 'groupId must be one of your groups');
}

const json = (reply, body, status = 200) =>
  reply.code(status).header('content-type', 'application/json').send(JSON.stringify(body));

app.get('/api/todos', async (request, reply) => {
  const user = await authenticate(request);
  if (request.query.view === 'today') {
    // Tally's Today view (todos/service.ts): open todos due today or before in the caller's zone.
    const today = dateInZone(Date.now(), zoneOf(request));
    const rows = await db.query(
      `select ${TODO_COLUMNS} from "todos" where "user_id" = ? and "completed" = ? and "due_date" is not null and "due_date" <= ? order by "due_date", coalesce("due_time", ?), "id"`,
      [user.id, 0, today, ''],
    );
    const tags = await tagsOfRows(rows);
    return json(
      reply,
      rows.map((row) => toTodo(row, tags)),
    );
  }
  const limit = request.query.limit === undefined ? null : Number(request.query.limit);
  if (limit === null) {
    const rows = await db.query(
      `select ${TODO_COLUMNS} from "todos" where "user_id" = ? order by "created_at" desc, "id" desc`,
      [user.id],
    );
    const tags = rows.length === 0 ? null : await tagsOfUser(user.id);
    return json(
      reply,
      rows.map((row) => toTodo(row, tags)),
    );
  }
  // Tally's first page (todos/service.ts): one more row than asked, the next page's cursor in a
  // header.
  const rows = await db.query(
    `select ${TODO_COLUMNS} from "todos" where "user_id" = ? order by "created_at" desc, "id" desc limit ?`,
    [user.id, limit + 1],
  );
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  if (last) {
    reply.header(
      'x-next-cursor',
      Buffer.from(`${last.created_at}.${last.id}`).toString('base64url'),
    );
  }
  const page = rows.slice(0, limit);
  const tags = await tagsOfRows(page);
  return json(
    reply,
    page.map((row) => toTodo(row, tags)),
  );
});

app.get('/api/todos/counts', async (request, reply) => {
  const user = await authenticate(request);
  const rows = await db.query(
    'select "group_id", count(*) as "count" from "todos" where "user_id" = ? group by "group_id"',
    [user.id],
  );
  const counts = { all: 0, ungrouped: 0, groups: [] };
  for (const row of rows) {
    const count = Number(row.count);
    counts.all += count;
    if (row.group_id === null) counts.ungrouped = count;
    else counts.groups.push({ groupId: row.group_id, count });
  }
  counts.groups.sort((a, b) => a.groupId - b.groupId);
  return json(reply, counts);
});

app.post('/api/todos', async (request, reply) => {
  const user = await authenticate(request);
  const { title, description = null, groupId = null } = request.body;
  const now = Date.now();
  const todo = await db.transaction(async (query) => {
    await checkGroup(query, user.id, groupId);
    const [row] = await query(
      `insert into "todos" ("user_id", "group_id", "title", "description", "completed", "created_at", "updated_at", "due_date", "due_time", "repeat"${SEARCH_COLUMN}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?${SEARCH_VALUE}) returning ${TODO_COLUMNS}`,
      [
        user.id,
        groupId,
        title.trim(),
        description?.trim() || null,
        0,
        now,
        now,
        null,
        null,
        null,
        ...searchValues(title.trim(), description?.trim() || null),
      ],
    );
    await recordEvents(query, user.id, ['todosCreated'], now);
    return toTodo(row);
  });
  return json(reply, todo, 201);
});

app.put('/api/todos/:id', async (request, reply) => {
  const user = await authenticate(request);
  const id = Number(request.params.id);
  const { title, description = null, groupId = null, completed } = request.body;
  const now = Date.now();
  const todo = await db.transaction(async (query) => {
    // The benchmark's todos to toggle have no due date and no repeat: the planning stays as it is.
    const [current] = await query(
      'select "completed", "due_date", "due_time", "repeat", "created_at" from "todos" where "id" = ? and "user_id" = ?',
      [id, user.id],
    );
    if (!current) throw new HttpError(404, 'Todo not found');
    await checkGroup(query, user.id, groupId);
    const [row] = await query(
      `update "todos" set "title" = ?, "description" = ?, "group_id" = ?, "completed" = ?, "updated_at" = ?, "due_date" = ?, "due_time" = ?, "repeat" = ?${SEARCH_SET}${VERSION_SET} where "id" = ? and "user_id" = ? returning ${TODO_COLUMNS}`,
      [
        title.trim(),
        description?.trim() || null,
        groupId,
        completed ? 1 : 0,
        now,
        current.due_date,
        current.due_time,
        current.repeat,
        ...searchValues(title.trim(), description?.trim() || null),
        id,
        user.id,
      ],
    );
    const completedNow = current.completed === 0 && completed;
    const types = completedNow ? ['todosUpdated', 'todosCompleted'] : ['todosUpdated'];
    await recordEvents(query, user.id, types, now);
    if (completedNow) {
      await query(
        'insert into "todo_completions" ("user_id", "todo_id", "group_id", "created_at", "completed_at", "due_date", "on_time") values (?, ?, ?, ?, ?, ?, ?)',
        [user.id, id, groupId, current.created_at, now, current.due_date, null],
      );
    }
    return toTodo(row);
  });
  return json(reply, todo);
});

app.get('/api/todo-groups', async (request, reply) => {
  const user = await authenticate(request);
  const rows = await db.query(
    `select "id", "name", "color"${VERSIONED ? ', "version"' : ''} from "todo_groups" where "user_id" = ? order by "created_at" desc, "id" desc`,
    [user.id],
  );
  return json(
    reply,
    rows.map((row) =>
      VERSIONED
        ? { id: row.id, name: row.name, color: row.color, version: row.version }
        : { id: row.id, name: row.name, color: row.color },
    ),
  );
});

const TOTAL_TYPES = [
  'todosCreated',
  'todosCompleted',
  'groupsCreated',
  'logins',
  'todosDeleted',
  'googleAuths',
  'registrations',
  'tokensGenerated',
  'refreshTokensCreated',
  'todosUpdated',
  'groupsUpdated',
  'groupsDeleted',
];
const DAILY_TYPES = ['todosCreated', 'todosCompleted', 'groupsCreated', 'logins'];
const SINCE_TYPES = ['todosCreated', 'todosCompleted', 'groupsCreated', 'logins', 'todosDeleted'];
const zeroes = (keys) => Object.fromEntries(keys.map((key) => [key, 0]));

// Zones and day starts are remembered, as Tally does (statistics/calendar.ts).
const zones = new Map();
function zoneOf(request) {
  const zone = request.headers['x-time-zone'];
  let resolved = zones.get(zone);
  if (resolved) return resolved;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    resolved = 'UTC';
  }
  zones.set(zone, resolved);
  return resolved;
}
const dateInZone = (instant, zone) => {
  const d = new TZDate(instant, zone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const dayStarts = new Map();
const startOfDay = (date, zone) => {
  const key = `${zone} ${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    const [y, m, d] = date.split('-').map(Number);
    start = new TZDate(y, m - 1, d, zone).getTime();
    dayStarts.set(key, start);
  }
  return start;
};
const addDays = (date, days) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

app.get('/api/statistics/total', async (request, reply) => {
  const user = await authenticate(request);
  const rows = await db.query(
    'select "type", "count" from "statistic_totals" where "user_id" = ?',
    [user.id],
  );
  const totals = zeroes(TOTAL_TYPES);
  for (const row of rows) if (row.type in totals) totals[row.type] = Number(row.count);
  return json(reply, totals);
});

const HOURLY = {
  todosCreated: 'todos_created',
  todosCompleted: 'todos_completed',
  groupsCreated: 'groups_created',
  logins: 'logins',
  todosDeleted: 'todos_deleted',
};

app.get('/api/statistics/since', async (request, reply) => {
  const user = await authenticate(request);
  const from = startOfDay(request.query.since, zoneOf(request));
  const sums = SINCE_TYPES.map((type) => `sum("${HOURLY[type]}") as "${type}"`).join(', ');
  const [row] = await db.query(
    `select ${sums} from "statistic_hours" where "user_id" = ? and "hour" >= ?`,
    [user.id, from / 3_600_000],
  );
  const result = zeroes(SINCE_TYPES);
  for (const type of SINCE_TYPES) result[type] = Number(row?.[type] ?? 0);
  return json(reply, result);
});

app.get('/api/statistics/recent', async (request, reply) => {
  const user = await authenticate(request);
  const days = Number(request.query.days ?? 30);
  const zone = zoneOf(request);
  const newest = dateInZone(Date.now(), zone);
  const dates = Array.from({ length: days + 1 }, (_, i) => addDays(newest, 1 - i));
  const bounds = dates.map((date) => startOfDay(date, zone) / 3_600_000);
  const values = Array.from(
    { length: days },
    () => '(cast(? as integer), cast(? as integer), cast(? as integer))',
  ).join(', ');
  const params = [];
  for (let i = 0; i < days; i++) params.push(i, bounds[i + 1], bounds[i]);
  const sums = DAILY_TYPES.map((type) => `sum(h."${HOURLY[type]}") as "${type}"`).join(', ');
  const rows = await db.query(
    `with days (day, from_hour, to_hour) as (values ${values}) select days.day as day, ${sums} from days inner join statistic_hours h on h.user_id = ? and h.hour >= days.from_hour and h.hour < days.to_hour group by days.day`,
    [...params, user.id],
  );
  const records = dates.slice(1).map((date) => ({ date, ...zeroes(DAILY_TYPES) }));
  for (const row of rows) {
    for (const type of DAILY_TYPES) records[Number(row.day)][type] = Number(row[type] ?? 0);
  }
  return json(reply, records);
});

app.post('/api/auth/login', async (request, reply) => {
  const { username, password } = request.body;
  const [user] = await db.query(
    'select "id", "username", "password_hash" from "users" where "username_lower" = ?',
    [username.toLowerCase()],
  );
  if (!user || !(await verifyArgon2(user.password_hash, password))) {
    throw new HttpError(401, 'Invalid username or password');
  }
  const now = Date.now();
  const token = randomBytes(32).toString('base64url');
  const sessionId = randomUUID();
  await db.transaction(async (query) => {
    await query(
      'insert into "sessions" ("id", "user_id", "created_at", "last_used_at", "expires_at", "ended_at", "user_agent") values (?, ?, ?, ?, ?, ?, ?)',
      [
        sessionId,
        user.id,
        now,
        now,
        now + 30 * 86_400_000,
        null,
        request.headers['user-agent'] ?? null,
      ],
    );
    await query(
      'insert into "refresh_tokens" ("user_id", "family_id", "token_hash", "created_at", "expires_at", "used_at", "revoked_at") values (?, ?, ?, ?, ?, ?, ?)',
      [
        user.id,
        sessionId,
        createHash('sha256').update(token).digest('hex'),
        now,
        now + 30 * 86_400_000,
        null,
        null,
      ],
    );
    await recordEvents(query, user.id, ['logins', 'tokensGenerated', 'refreshTokensCreated'], now);
  });
  reply.header('set-cookie', `tally_refresh=${token}; Path=/api/auth; HttpOnly; SameSite=Strict`);
  return json(reply, { accessToken: signJwt(user.username, user.id, sessionId) });
});

app.get('/api/health', async () => ({ status: 'ok' }));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    void app
      .close()
      .then(() => db.close())
      .finally(() => process.exit(0));
  });
}
