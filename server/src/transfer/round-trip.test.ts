import {
  accountApi,
  filtersApi,
  type AccountExport,
  type Group,
  groupsApi,
  type ImportReport,
  tagsApi,
  type Todo,
  todosApi,
  transferApi,
} from '@tally/contract';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';
import { imported } from '../test/import-helpers.js';

/**
 * The CSV export (RFC 4180, BOM, formulas neutralised), and the JSON round trip: export, delete
 * the account, register again, import: the same groups and todos. Another user's ids in a Tally
 * file never reach that user's rows.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const call = (user: Pick<TestUser, 'token'>) => apiClient(ctx.app, user);

async function seed(user: TestUser) {
  const api = call(user);
  const group = async (name: string, color: string) =>
    (await api.unchecked(groupsApi.create, { body: { name, color } })).json<Group>();
  const work = await group('Work', '#EF4444');
  const home = await group('Home, garden & "stuff"', '#10B981');
  await group('Empty', '#8B5CF6');
  const todo = async (payload: object) => {
    const response = await api.unchecked(todosApi.create, { body: payload });
    expect(response.statusCode, response.body).toBe(201);
    ctx.clock.advance(60_000);
    return response.json<Todo>();
  };
  await todo({ title: 'Plain' });
  await todo({
    title: 'Weekly review',
    description: 'Line one\nline two, with "quotes"',
    groupId: work.id,
    dueDate: '2026-03-13',
    dueTime: '16:00',
    repeat: { every: 1, unit: 'week', weekdays: ['fri'], from: 'due' },
    reminders: [0, 1440],
  });
  await todo({ title: '=HYPERLINK("http://evil.example","click")', groupId: home.id });
  await todo({ title: '@SUM(A1:A2)', description: '-2+3' });
  await todo({ title: '+1 idea', description: '@home' });
  const done = await todo({ title: 'Done already', groupId: home.id, dueDate: '2026-03-09' });
  await api(todosApi.update, {
    params: { id: done.id },
    body: { title: done.title, groupId: home.id, completed: true, dueDate: '2026-03-09' },
  });
  const monthly = await todo({
    title: 'Pay rent',
    dueDate: '2026-03-31',
    repeat: { every: 1, unit: 'month', from: 'completion' },
  });
  // Completing a repeating todo counts a completion and moves it on.
  await api(todosApi.update, {
    params: { id: monthly.id },
    body: { title: monthly.title, completed: true },
  });
  // The task model: tags (one coloured), priority, subtasks two levels deep, a start date, a manual
  // order and the sort chosen for two views, one of them a group's.
  const move = await todo({
    title: 'Move house',
    description: '- [ ] **boxes**',
    tags: ['home', 'Big'],
    priority: 3,
    groupId: home.id,
  });
  const van = await todo({ title: 'Book a van', parentId: move.id, priority: 1 });
  await todo({ title: 'Compare prices', parentId: van.id, tags: ['Big'], startDate: '2026-04-01' });
  await api(todosApi.move, { params: { id: move.id }, body: { afterId: monthly.id } });
  await api(tagsApi.update, { params: { name: 'home' }, body: { color: '#F59E0B' } });
  await api(todosApi.setSort, { body: { view: 'all', sort: 'manual' } });
  await api(todosApi.setSort, { body: { view: `group-${home.id}`, sort: 'priority' } });
}

const SEEDED = 10;

describe('GET /api/todos/export.csv', () => {
  it('is RFC 4180 CSV in UTF-8 with a BOM, an attachment, with formulas neutralised', async () => {
    const user = await registerUser(ctx.app);
    await seed(user);
    const response = await call(user)(transferApi.exportCsv);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="tally-todos-2026-03-10.csv"',
    );
    const raw = response.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.toString('utf8');
    expect(text.split('\r\n')[0]).toBe(
      '\uFEFFid,title,description,group,completed,dueDate,dueTime,repeat,createdAt,' +
        'tags,priority,parentId,startDate,durationMinutes',
    );
    expect(text.endsWith('\r\n')).toBe(true);
    // Quotes doubled inside a quoted cell; a line break inside a cell stays in its quotes.
    expect(text).toContain('"Line one\nline two, with ""quotes"""');
    expect(text).toContain('"Home, garden & ""stuff"""');

    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(SEEDED);
    const byTitle = (title: string) => rows.find((row) => row.title === title);
    expect(byTitle('Weekly review')).toMatchObject({
      group: 'Work',
      completed: 'false',
      dueDate: '2026-03-13',
      dueTime: '16:00',
      repeat: 'every week on Fri',
    });
    expect(byTitle('Pay rent')).toMatchObject({
      dueDate: '2026-04-10',
      repeat: 'every month on day 31, from completion',
    });
    expect(byTitle('Done already')).toMatchObject({ completed: 'true' });
    // Cells that a spreadsheet would run as formulas start with ' instead.
    expect(byTitle(`'=HYPERLINK("http://evil.example","click")`)).toBeDefined();
    expect(byTitle("'@SUM(A1:A2)")).toMatchObject({ description: "'-2+3" });
    expect(byTitle("'+1 idea")).toMatchObject({ description: "'@home" });
    expect(rows.map((row) => row.id).every((id) => /^\d+$/.test(id ?? ''))).toBe(true);
  });

  it("carries the task model's tags, priority, parent and start date", async () => {
    const user = await registerUser(ctx.app);
    const post = async (payload: object) =>
      (await call(user).unchecked(todosApi.create, { body: payload })).json<{ id: number }>();
    const parent = await post({ title: 'Move', tags: ['home', 'Big'], priority: 3 });
    await post({ title: 'Van', parentId: parent.id, startDate: '2026-04-01' });
    const text = (await call(user)(transferApi.exportCsv)).body;
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(
      rows.map((row) => [row.title, row.tags, row.priority, row.parentId, row.startDate]),
    ).toEqual([
      ['Move', 'Big home', '3', '', ''],
      ['Van', '', '0', String(parent.id), '2026-04-01'],
    ]);
  });

  it('quotes a cell with a bare line break, so its next line never starts a row', async () => {
    const user = await registerUser(ctx.app);
    const description = "Notes\n=cmd|' /C calc'!A0";
    const created = await call(user)(todosApi.create, { body: { title: 'Innocent', description } });
    expect(created.statusCode, created.body).toBe(201);
    const text = (await call(user)(transferApi.exportCsv)).body;
    expect(text).toContain(`"Notes\n=cmd|' /C calc'!A0"`);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ title: 'Innocent', description });
  });

  it('holds only the caller’s todos', async () => {
    const other = await registerUser(ctx.app);
    await call(other)(todosApi.create, { body: { title: 'Secret' } });
    const user = await registerUser(ctx.app);
    const response = await call(user)(transferApi.exportCsv);
    expect(response.body).toBe(
      '\uFEFFid,title,description,group,completed,dueDate,dueTime,repeat,createdAt,' +
        'tags,priority,parentId,startDate,durationMinutes\r\n',
    );
    expect((await apiClient(ctx.app, null)(transferApi.exportCsv)).statusCode).toBe(401);
  });
});

/** What a round trip keeps: groups by name and colour, todos by everything but their ids. */
const shape = (data: AccountExport) => {
  const groupName = new Map(data.groups.map((group) => [group.id, group.name]));
  const todoTitle = new Map(data.todos.map((todo) => [todo.id, todo.title]));
  return {
    groups: data.groups.map(({ name, color, createdAt }) => ({ name, color, createdAt })),
    tags: data.tags.map(({ name, color }) => ({ name, color })),
    todoSorts: Object.fromEntries(
      Object.entries(data.todoSorts).map(([view, sort]) => [
        view.replace(/^group-(\d+)$/, (_, id: string) => `group ${groupName.get(Number(id))}`),
        sort,
      ]),
    ),
    todos: data.todos.map((todo) => ({
      tags: todo.tags,
      priority: todo.priority,
      parent: todo.parentId === null ? null : todoTitle.get(todo.parentId),
      startDate: todo.startDate,
      position: todo.position,
      reminders: todo.reminders,
      title: todo.title,
      description: todo.description,
      group: todo.groupId === null ? null : groupName.get(todo.groupId),
      completed: todo.completed,
      dueDate: todo.dueDate,
      dueTime: todo.dueTime,
      repeat: todo.repeat,
      createdAt: todo.createdAt,
    })),
    completions: data.completions.map(({ completedAt, dueDate, onTime }) => ({
      completedAt,
      dueDate,
      onTime,
    })),
  };
};

describe('the round trip', () => {
  it('export → delete the account → register → import gives back the same groups and todos', async () => {
    const user = await registerUser(ctx.app);
    await seed(user);
    const saved = [
      { name: 'Urgent work', color: '#EF4444', query: '#Work & p1', position: 0 },
      { name: 'Soon', color: '#3B82F6', query: 'next 7 days | overdue', position: 1 },
    ] as const;
    for (const filter of saved) await call(user)(filtersApi.create, { body: filter });
    const exported = await call(user)(accountApi.export);
    const before = exported.json<AccountExport>();
    expect(before.version).toBe(4);
    expect(before.todos.find((todo) => todo.title === 'Weekly review')?.reminders).toEqual([
      1440, 0,
    ]);
    expect(before.filters).toEqual(saved);
    expect(before.todos).toHaveLength(SEEDED);
    expect(before.tags).toEqual([
      { name: 'home', color: '#F59E0B', createdAt: expect.any(String) },
      { name: 'Big', color: null, createdAt: expect.any(String) },
    ]);
    expect(before.todos.find((todo) => todo.title === 'Compare prices')).toMatchObject({
      tags: ['Big'],
      startDate: '2026-04-01',
      parentId: before.todos.find((todo) => todo.title === 'Book a van')?.id,
    });

    const deleted = await call(user)(accountApi.remove, { body: { password: user.password } });
    expect(deleted.statusCode).toBe(204);
    const again = await registerUser(ctx.app, user.username);

    const preview = await imported(ctx.app, again, exported.rawPayload, 'tally-json', true);
    expect(preview.todos).toMatchObject({ created: SEEDED, completed: 1, repeating: 2 });
    expect(preview.groups.map((g) => g.name)).toEqual(['Work', 'Home, garden & "stuff"', 'Empty']);
    const report: ImportReport = await imported(ctx.app, again, exported.rawPayload, 'tally-json');
    expect(report.skippedCount + report.warningCount).toBe(0);

    const after = (await call(again)(accountApi.export)).json<AccountExport>();
    expect(shape(after)).toEqual(shape(before));
    const todosAgain = (await call(again)(todosApi.list)).json<Todo[]>();
    expect(todosAgain.find((todo) => todo.title === 'Weekly review')).toMatchObject({
      reminders: [1440, 0],
      remindMinutesBefore: 1440,
    });
    expect(after.statistics.totals).toMatchObject({
      todosCreated: SEEDED,
      todosCompleted: 2,
      groupsCreated: 3,
    });

    // The same file again, or the new account's own export: nothing new.
    const twice = await imported(ctx.app, again, exported.rawPayload, 'tally-json');
    expect(twice.todos).toMatchObject({ created: 0, alreadyImported: SEEDED });
    const own = await call(again)(accountApi.export);
    const back = await imported(ctx.app, again, own.rawPayload, 'tally-json');
    expect(back.todos).toMatchObject({ created: 0, alreadyImported: SEEDED });
    expect(await call(again)(todosApi.list).then((r) => r.json<Todo[]>())).toHaveLength(SEEDED);
    // Saved filters come back once, by name.
    const filters = (await call(again)(filtersApi.list)).data();
    expect(
      filters.map(({ name, color, query, position }) => ({ name, color, query, position })),
    ).toEqual(saved);
  });

  it("imports Tally's own CSV export: titles, formulas, groups, repeats, tags and subtasks", async () => {
    const user = await registerUser(ctx.app);
    await seed(user);
    const parent = (
      await call(user)(todosApi.create, { body: { title: 'Trip', tags: ['travel'], priority: 2 } })
    ).json<Todo>();
    await call(user)(todosApi.create, { body: { title: 'Pack', parentId: parent.id } });
    await call(user)(todosApi.create, {
      body: {
        title: 'Call the bank',
        dueDate: '2026-03-12',
        dueTime: '10:00',
        durationMinutes: 45,
        startDate: '2026-03-11',
      },
    });
    const csv = await call(user)(transferApi.exportCsv);
    expect(csv.statusCode).toBe(200);
    const other = await registerUser(ctx.app);
    const report = await imported(ctx.app, other, csv.rawPayload, 'tally-csv');
    expect(report.skippedCount + report.warningCount).toBe(0);
    expect(report.todos).toMatchObject({ created: SEEDED + 3, completed: 1, repeating: 2 });
    const todos = await call(other)(todosApi.list).then((r) => r.json<Todo[]>());
    const byTitle = new Map(todos.map((todo) => [todo.title, todo]));
    expect(byTitle.get('=HYPERLINK("http://evil.example","click")')).toBeDefined();
    expect(byTitle.get('@SUM(A1:A2)')?.description).toBe('-2+3');
    expect(byTitle.get('Weekly review')).toMatchObject({
      description: 'Line one\nline two, with "quotes"',
      dueDate: '2026-03-13',
      dueTime: '16:00',
      repeat: { every: 1, unit: 'week', weekdays: ['fri'], from: 'due' },
    });
    expect(byTitle.get('Pay rent')?.repeat).toMatchObject({
      every: 1,
      unit: 'month',
      from: 'completion',
    });
    expect(byTitle.get('Trip')).toMatchObject({ tags: ['travel'], priority: 2 });
    expect(byTitle.get('Pack')?.parentId).toBe(byTitle.get('Trip')?.id);
    expect(byTitle.get('Call the bank')).toMatchObject({
      dueTime: '10:00',
      durationMinutes: 45,
      startDate: '2026-03-11',
    });
    // The same file again adds nothing.
    const twice = await imported(ctx.app, other, csv.rawPayload, 'tally-csv');
    expect(twice.todos).toMatchObject({ created: 0, alreadyImported: SEEDED + 3 });
  });

  it('a file of another user’s ids never touches that user’s rows', async () => {
    const victim = await registerUser(ctx.app);
    await seed(victim);
    const victimExport = (await call(victim)(accountApi.export)).json<AccountExport>();
    const attacker = await registerUser(ctx.app);
    // The attacker's file names the victim's group and todo ids, with other contents.
    const file: AccountExport = {
      ...victimExport,
      groups: victimExport.groups.map((group) => ({ ...group, name: `Mine ${group.id}` })),
      todos: victimExport.todos.map((todo) => ({
        ...todo,
        title: `Overwritten ${todo.id}`,
        completed: true,
      })),
    };
    const report = await imported(ctx.app, attacker, JSON.stringify(file), 'tally-json');
    expect(report.todos.created).toBe(SEEDED);

    const after = (await call(victim)(accountApi.export)).json<AccountExport>();
    expect(after.groups).toEqual(victimExport.groups);
    expect(after.todos).toEqual(victimExport.todos);
    const attackerTodos = await call(attacker)(todosApi.list).then((r) => r.json<Todo[]>());
    const attackerGroups = await call(attacker)(groupsApi.list).then((r) => r.json<Group[]>());
    const victimIds = new Set(victimExport.todos.map((todo) => todo.id));
    expect(attackerTodos.every((todo) => !victimIds.has(todo.id))).toBe(true);
    const attackerGroupIds = new Set(attackerGroups.map((group) => group.id));
    expect(
      attackerTodos.every((todo) => todo.groupId === null || attackerGroupIds.has(todo.groupId)),
    ).toBe(true);
  });
});

describe('/api/docs', () => {
  it('documents the import form, the CSV answer and the export’s version', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, Record<string, unknown>>>;
    }>();
    const form = document.paths['/api/import']?.post?.requestBody as {
      content: Record<string, { schema: { required: string[] } }>;
    };
    expect(form.content['multipart/form-data']?.schema.required).toEqual(['file', 'format']);
    const csv = document.paths['/api/todos/export.csv']?.get?.responses as Record<
      string,
      { content: Record<string, unknown> }
    >;
    expect(Object.keys(csv['200']?.content ?? {})).toEqual(['text/csv']);
    expect(Object.keys(csv['400']?.content ?? csv['401']?.content ?? {})).toEqual([
      'application/json',
    ]);
    const exported = document.paths['/api/account/export']?.get?.responses as Record<
      string,
      { content: Record<string, { schema: { properties: { version: unknown } } }> }
    >;
    expect(exported['200']?.content['application/json']?.schema.properties.version).toMatchObject({
      enum: [4],
    });
  });
});
