import {
  calendarApi,
  groupsApi,
  type ImportRecord,
  type ImportReport,
  type ImportUndo,
  type Todo,
  todosApi,
  transferApi,
  trashApi,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';
import { fixture, formBody, importFile, imported } from '../test/import-helpers.js';

/**
 * The Google Tasks, Vikunja, iCalendar and any-CSV importers, and the import history's Undo,
 * through POST /api/import and /api/imports; on SQLite, or PostgreSQL when TEST_DATABASE_URL is
 * set. Fixtures: ./fixtures/SOURCES.md says which are genuine exports and which are made. The
 * clock stands at Tuesday 2026-03-10 12:00 UTC; the caller is in Europe/Berlin.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const todosOf = async (user: TestUser) =>
  (await apiClient(ctx.app, user)(todosApi.list)).json<Todo[]>();
const groupsOf = async (user: TestUser) =>
  (await apiClient(ctx.app, user)(groupsApi.list)).json<
    { id: number; name: string; color: string }[]
  >();
const byTitle = (todos: Todo[], title: string) => {
  const todo = todos.find((t) => t.title === title);
  if (!todo) throw new Error(`no todo "${title}" among ${todos.map((t) => t.title).join(', ')}`);
  return todo;
};
const groupName = async (user: TestUser, todo: Todo) =>
  (await groupsOf(user)).find((group) => group.id === todo.groupId)?.name ?? null;

/** Imports the file twice: the second time creates nothing and says all were there. */
async function importTwice(user: TestUser, bytes: Uint8Array | string, format: string) {
  const first = await imported(ctx.app, user, bytes, format);
  const again = await imported(ctx.app, user, bytes, format);
  expect(again.todos.created).toBe(0);
  expect(again.todos.alreadyImported).toBe(first.todos.created);
  expect(again.groups.every((group) => group.existing)).toBe(true);
  expect(again.importId).toBeNull();
  return first;
}

async function refused(bytes: Uint8Array | string, format: string, status = 400) {
  const user = await registerUser(ctx.app);
  const response = await importFile(ctx.app, user, bytes, format, true);
  expect(response.statusCode, response.body).toBe(status);
  expect(await todosOf(user)).toEqual([]);
  return response.json<{ error: string }>().error;
}

const deeplyNested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('Google Tasks (Takeout Tasks.json)', () => {
  const file = fixture('google-tasks.json');

  it('imports each list as a group and each task with its fields; a second import adds nothing', async () => {
    const user = await registerUser(ctx.app);
    const preview = await imported(ctx.app, user, file, 'google-tasks-json', true);
    expect(preview).toMatchObject({
      format: 'google-tasks-json',
      todos: { created: 4, completed: 2, withDueDate: 2, repeating: 0, alreadyImported: 0 },
      skippedCount: 2,
      importId: null,
    });
    expect(preview.skipped.map((row) => [row.where, row.reason])).toEqual([
      ['task 3', 'It was deleted in Google Tasks'],
      ['task 6', 'It has no title'],
    ]);
    expect(await todosOf(user)).toEqual([]);

    const report = await importTwice(user, file, 'google-tasks-json');
    expect(report.importId).toEqual(expect.any(Number));
    const todos = await todosOf(user);
    expect(todos).toHaveLength(4);
    const passport = byTitle(todos, 'Renew the passport');
    expect(passport).toMatchObject({
      description:
        'Bring two photos\n\n[Passport appointment](https://mail.google.com/mail/#all/17a1b2c3d4e5f6)',
      completed: false,
      dueDate: '2026-04-02',
      dueTime: null,
      repeat: null,
      parentId: null,
      // Takeout keeps no creation time: created at its last change.
      created: '2025-12-01T09:15:00.000Z',
    });
    expect(await groupName(user, passport)).toBe('My Tasks');
    expect(byTitle(todos, 'Get photos taken')).toMatchObject({
      completed: true,
      parentId: passport.id,
    });
    expect(byTitle(todos, 'Return the library books')).toMatchObject({ completed: true });
    const milk = byTitle(todos, 'Milk');
    expect(milk).toMatchObject({ dueDate: '2026-03-11', completed: false });
    expect(await groupName(user, milk)).toBe('Groceries');
  });

  it('finds a parent listed after its subtask, and names one that is not in the file', async () => {
    const user = await registerUser(ctx.app);
    const file = JSON.stringify({
      kind: 'tasks#taskLists',
      items: [
        {
          title: 'Trip',
          items: [
            { id: 'sub', title: 'Book the hotel', parent: 'top' },
            { id: 'top', title: 'Plan the trip' },
            { id: 'lost', title: 'Pack', parent: 'gone' },
          ],
        },
      ],
    });
    const preview = await imported(ctx.app, user, file, 'google-tasks-json', true);
    expect(preview.warnings.map((row) => [row.where, row.message])).toEqual([
      ['task 3', 'Its parent (id "gone") is not in the file: imported at the top level'],
    ]);
    await imported(ctx.app, user, file, 'google-tasks-json');
    const todos = await todosOf(user);
    expect(byTitle(todos, 'Book the hotel').parentId).toBe(byTitle(todos, 'Plan the trip').id);
    expect(byTitle(todos, 'Pack').parentId).toBeNull();
  });

  it('refuses files that are not a Takeout export, deeply nested or in a broken encoding', async () => {
    expect(await refused('{"kind":"tasks#tasks"}', 'google-tasks-json')).toMatch(
      /not a Google Tasks export/,
    );
    expect(await refused(deeplyNested(100_000), 'google-tasks-json')).toMatch(
      /nested deeper than 64 levels/,
    );
    // A UTF-16 byte-order mark followed by an odd number of bytes.
    expect(
      await refused(new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x22]), 'google-tasks-json'),
    ).toMatch(/not valid UTF-16LE/);
    expect(await refused('{"items": [', 'google-tasks-json')).toMatch(/not valid JSON/);
    const tasks = Array.from({ length: 10_001 }, (_, i) => ({ id: `t${i}`, title: `Task ${i}` }));
    expect(
      await refused(
        JSON.stringify({ items: [{ title: 'Big', items: tasks }] }),
        'google-tasks-json',
      ),
    ).toBe('The file has more than 10,000 todos; an import takes at most 10,000');
  });
});

describe('Vikunja (export archive)', () => {
  it('imports the genuine export of go-vikunja/vikunja: projects, tasks, labels, comments', async () => {
    const user = await registerUser(ctx.app);
    const report = await importTwice(user, fixture('vikunja-export.zip'), 'vikunja-zip');
    expect(report.groups.map((group) => [group.name, group.todos])).toEqual([
      ['Inbox', 2],
      ['test project', 0],
    ]);
    expect(report.warnings.map((row) => [row.where, row.message])).toEqual([
      ['task 1', 'Imported without its attachment: Tally keeps no files'],
    ]);
    const todos = await todosOf(user);
    expect(todos).toHaveLength(2);
    expect(byTitle(todos, 'test project')).toMatchObject({
      description: 'This is a comment',
      tags: ['test'],
      completed: false,
      dueDate: null,
      startDate: null,
      priority: 0,
      created: '2023-01-13T14:59:49.000Z',
    });
    expect(byTitle(todos, 'some other task')).toMatchObject({ description: null, tags: [] });
    expect((await groupsOf(user)).map((group) => group.name).sort()).toEqual([
      'Inbox',
      'test project',
    ]);
  });

  it('reads every field a Vikunja task has that Tally keeps (constructed archive)', async () => {
    const user = await registerUser(ctx.app);
    const report = await importTwice(user, fixture('vikunja-constructed.zip'), 'vikunja-zip');
    expect(report.groups).toEqual([
      { name: 'Inbox', color: '#3B82F6', existing: false, todos: 6 },
      { name: 'Garden', color: '#10B981', existing: false, todos: 2 },
    ]);
    expect(report.warnings.map((row) => row.message)).toEqual([
      'Imported without its attachment: Tally keeps no files',
      'Its repeat (every 18000 seconds) is not whole days or weeks: imported without it',
    ]);
    const todos = await todosOf(user);
    expect(byTitle(todos, 'Renew the passport')).toMatchObject({
      description:
        'Bring two photos & the old one.\n\n- Photo booth\n\n- Form\n\nSee [the guide](https://example.org/passport)\n\nOffice opens at 9',
      dueDate: '2026-04-02',
      // 15:30 UTC is 17:30 in Berlin (summer time).
      dueTime: '17:30',
      startDate: '2026-03-20',
      priority: 3,
      tags: ['errands', 'paperwork'],
      completed: false,
    });
    expect(byTitle(todos, 'Water the plants')).toMatchObject({
      // 23:00 UTC is midnight in Berlin: a day without a time.
      dueDate: '2026-03-11',
      dueTime: null,
      repeat: { every: 3, unit: 'day', from: 'due' },
      priority: 1,
    });
    expect(byTitle(todos, 'Call Grandma')).toMatchObject({
      repeat: { every: 1, unit: 'week', from: 'completion' },
      priority: 2,
    });
    expect(byTitle(todos, 'Pay rent')).toMatchObject({
      dueDate: '2026-04-01',
      dueTime: '10:00',
      repeat: { every: 1, unit: 'month', from: 'due' },
      priority: 3,
    });
    expect(byTitle(todos, 'Back up the laptop')).toMatchObject({
      completed: true,
      created: '2025-01-20T12:00:00.000Z',
    });
    expect(byTitle(todos, 'Check the tyres')).toMatchObject({ repeat: null, dueTime: '12:00' });
    const tomatoes = byTitle(todos, 'Plant the tomatoes');
    expect(tomatoes.priority).toBe(3);
    expect(byTitle(todos, 'Buy seedlings').parentId).toBe(tomatoes.id);
  });

  it('refuses a zip bomb, an archive without data.json and a file that is not a zip', async () => {
    const started = Date.now();
    expect(await refused(fixture('vikunja-bomb.zip'), 'vikunja-zip')).toBe(
      'data.json in the archive is larger than 10 MB once unpacked',
    );
    // One that says its data.json is 100 bytes and inflates to 50 MB stops at the first bytes over.
    expect(await refused(fixture('vikunja-lying-bomb.zip'), 'vikunja-zip')).toBe(
      'data.json in the archive unpacks to more than the archive says: it is damaged or not a genuine export',
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await refused(fixture('vikunja-no-data.zip'), 'vikunja-zip')).toBe(
      'The archive holds no data.json',
    );
    expect(await refused('[{"title": "Inbox"}]', 'vikunja-zip')).toMatch(
      /^The file is not a ZIP archive that can be read/,
    );
  });
});

describe('iCalendar (.ics of VTODOs)', () => {
  it('imports each VTODO through the CalDAV codec, field by field; a second import adds nothing', async () => {
    const user = await registerUser(ctx.app);
    const report = await importTwice(user, fixture('tasks.ics'), 'ics');
    expect(report.groups).toEqual([
      { name: 'Household', color: '#3B82F6', existing: false, todos: 5 },
    ]);
    expect(report.skipped.map((row) => [row.line, row.reason])).toEqual([
      [67, 'An event, not a task'],
    ]);
    expect(report.warnings.map((row) => row.message)).toEqual([
      'Its reminder (15 minutes before the due time) is not imported',
      'Its repeat (FREQ=HOURLY;INTERVAL=5) is not one Tally has: imported without it',
    ]);
    const todos = await todosOf(user);
    expect(todos).toHaveLength(5);
    const passport = byTitle(todos, 'Renew the passport');
    expect(passport).toMatchObject({
      description: 'Bring two photos\nand the old passport',
      dueDate: '2026-04-02',
      dueTime: '15:30',
      startDate: '2026-03-20',
      priority: 3,
      tags: ['errands', 'paperwork'],
      completed: false,
      created: '2025-04-04T14:30:18.000Z',
    });
    expect(byTitle(todos, 'Clean up the cellar')).toMatchObject({ completed: true });
    expect(byTitle(todos, 'Get photos taken')).toMatchObject({
      parentId: passport.id,
      priority: 2,
    });
    expect(byTitle(todos, 'Water the plants')).toMatchObject({
      dueDate: '2026-03-10',
      repeat: { every: 3, unit: 'day', from: 'due' },
    });
    expect(byTitle(todos, 'Check the smoke alarm').repeat).toBeNull();
  });

  it("restores Tally's own calendar feed into another account", async () => {
    const owner = await registerUser(ctx.app);
    const api = apiClient(ctx.app, owner);
    const parent = (
      await api(todosApi.create, {
        body: {
          title: 'Quarterly taxes',
          description: 'Forms; receipts, and the rest',
          dueDate: '2026-03-31',
          dueTime: '09:00',
          repeat: { every: 3, unit: 'month', from: 'due' },
          tags: ['money'],
          priority: 2,
        },
      })
    ).json<Todo>();
    await api(todosApi.create, {
      body: {
        title: 'Collect receipts',
        dueDate: '2026-03-20',
        startDate: '2026-03-15',
        parentId: parent.id,
      },
    });
    const feed = (
      await api(calendarApi.regenerate, { headers: { 'x-time-zone': 'Europe/Berlin' } })
    ).json<{ path: string }>();
    const ics = (await ctx.app.inject({ method: 'GET', url: feed.path })).body;

    const user = await registerUser(ctx.app);
    await importTwice(user, ics, 'ics');
    const todos = await todosOf(user);
    expect(todos).toHaveLength(2);
    const taxes = byTitle(todos, 'Quarterly taxes');
    expect(taxes).toMatchObject({
      description: 'Forms; receipts, and the rest',
      dueDate: '2026-03-31',
      dueTime: '09:00',
      repeat: { every: 3, unit: 'month', from: 'due' },
      tags: ['money'],
      priority: 2,
      groupId: null,
    });
    expect(byTitle(todos, 'Collect receipts')).toMatchObject({
      dueDate: '2026-03-20',
      startDate: '2026-03-15',
      parentId: taxes.id,
    });
  });

  it('refuses deep nesting, unbalanced components and files that are not iCalendar', async () => {
    const deep = `BEGIN:VCALENDAR\n${'BEGIN:X\n'.repeat(50)}${'END:X\n'.repeat(50)}END:VCALENDAR\n`;
    expect(await refused(deep, 'ics')).toBe('Line 9: components are nested deeper than 8 levels');
    expect(await refused('BEGIN:VCALENDAR\nBEGIN:VTODO\nEND:VCALENDAR\n', 'ics')).toBe(
      'Line 3: END:VCALENDAR does not close the component it is in',
    );
    expect(await refused('Task,Due\nMilk,2026-03-11\n', 'ics')).toBe(
      'Line 1: text outside any VCALENDAR; this is not an iCalendar file',
    );
    expect(await refused('BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n', 'ics')).toBe(
      'The calendar holds no tasks (VTODOs)',
    );
    const many = Array.from(
      { length: 10_001 },
      (_, i) => `BEGIN:VTODO\nUID:t${i}\nSUMMARY:Task ${i}\nEND:VTODO`,
    );
    expect(await refused(`BEGIN:VCALENDAR\n${many.join('\n')}\nEND:VCALENDAR\n`, 'ics')).toBe(
      'The file has more than 10,000 todos; an import takes at most 10,000',
    );
  });

  it('skips a task the codec refuses, with its reason, and imports the rest', async () => {
    const user = await registerUser(ctx.app);
    const ics = [
      'BEGIN:VCALENDAR',
      'BEGIN:VTODO',
      'SUMMARY:No UID',
      'END:VTODO',
      'BEGIN:VTODO',
      'UID:long',
      `SUMMARY:${'x'.repeat(300)}`,
      'END:VTODO',
      'BEGIN:VTODO',
      'UID:fine',
      'SUMMARY:Fine',
      'END:VTODO',
      'END:VCALENDAR',
    ].join('\r\n');
    const report = await imported(ctx.app, user, ics, 'ics');
    expect(report.skipped.map((row) => [row.line, row.reason])).toEqual([
      [2, 'UID: a VTODO needs a UID of 1-255 characters'],
      [5, 'SUMMARY must be at most 200 characters'],
    ]);
    expect((await todosOf(user)).map((todo) => todo.title)).toEqual(['Fine']);
  });
});

describe('Any CSV, with a column mapping', () => {
  const file = fixture('any.csv');

  it('takes the columns whose headers name a field, and says which became which', async () => {
    const user = await registerUser(ctx.app);
    const report = await importTwice(user, file, 'csv');
    expect(report.columns).toEqual([
      { column: 'Task', field: 'title' },
      { column: 'Notes', field: 'description' },
      { column: 'List', field: 'group' },
      { column: 'Due', field: 'dueDate' },
      { column: 'Time', field: 'dueTime' },
      { column: 'Done', field: 'completed' },
      { column: 'Labels', field: 'tags' },
      { column: 'Importance', field: 'priority' },
      { column: 'Owner', field: null },
    ]);
    expect(report.skipped.map((row) => [row.line, row.reason])).toEqual([[5, 'It has no title']]);
    expect(report.warnings.map((row) => [row.line, row.message])).toEqual([
      [4, 'Its due date "03/10/2026" is not YYYY-MM-DD: imported without one'],
    ]);
    const todos = await todosOf(user);
    const passport = byTitle(todos, 'Renew the passport');
    expect(passport).toMatchObject({
      description: 'Bring two photos',
      dueDate: '2026-04-02',
      dueTime: '15:30',
      completed: false,
      tags: ['errands', 'paperwork'],
      priority: 3,
    });
    expect(await groupName(user, passport)).toBe('Errands');
    expect(byTitle(todos, 'Clean up the cellar')).toMatchObject({
      completed: true,
      dueDate: '2025-04-02',
      priority: 0,
    });
    expect(byTitle(todos, 'Water the plants')).toMatchObject({ dueDate: null });
    expect(byTitle(todos, 'Buy milk')).toMatchObject({
      dueDate: '2026-03-11',
      dueTime: '08:00',
      completed: true,
      tags: ['groceries'],
      priority: 2,
      groupId: null,
    });
  });

  it('follows the mapping the caller chose, and refuses one that names no column', async () => {
    const user = await registerUser(ctx.app);
    const send = async (mapping: string) => {
      const { payload, headers } = await formBody(
        { format: 'csv', dryRun: 'true', mapping },
        { bytes: file },
      );
      return ctx.app.inject({
        method: 'POST',
        url: '/api/import',
        payload,
        headers: { ...headers, authorization: `Bearer ${user.token}` },
      });
    };
    const chosen = await send(JSON.stringify({ title: 'Notes', group: 'Owner' }));
    expect(chosen.statusCode, chosen.body).toBe(200);
    const report = chosen.json<ImportReport>();
    expect(report.columns?.filter((column) => column.field !== null)).toEqual([
      { column: 'Notes', field: 'title' },
      { column: 'Owner', field: 'group' },
    ]);
    expect(report.preview.map((todo) => [todo.title, todo.group])).toEqual([
      ['Bring two photos', 'Ana'],
      ['no title here', 'Ben'],
    ]);
    for (const [mapping, error] of [
      [JSON.stringify({ title: 'Nope' }), 'mapping: the file has no column "Nope" (for title)'],
      [
        JSON.stringify({ colour: 'Task' }),
        expect.stringMatching(/^mapping: "colour" is not a field/),
      ],
      ['[1]', expect.stringMatching(/^mapping must be a JSON object/)],
      [
        JSON.stringify({ dueDate: 'Due' }),
        "mapping: title is required: the column that holds each todo's title",
      ],
    ] as const) {
      const response = await send(mapping);
      expect(response.statusCode, mapping).toBe(400);
      expect(response.json<{ error: string }>().error).toEqual(error);
    }
    expect(await todosOf(user)).toEqual([]);
  });

  it('refuses more than 10,000 rows and a file in a broken encoding', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `Task ${i}`);
    expect(await refused(['Title', ...rows].join('\n'), 'csv')).toBe(
      'The file has more than 10,000 todos; an import takes at most 10,000',
    );
    expect(await refused(new Uint8Array([0xfe, 0xff, 0x00, 0x54, 0xd8]), 'csv')).toBe(
      'The file starts as UTF-16BE text but is not valid UTF-16BE',
    );
  });

  it('previews the columns when none is the title, so the caller can choose one', async () => {
    const user = await registerUser(ctx.app);
    const report = await imported(ctx.app, user, 'Thing,Due\nMilk,2026-03-11\n', 'csv', true);
    expect(report.columns).toEqual([
      { column: 'Thing', field: null },
      { column: 'Due', field: 'dueDate' },
    ]);
    expect(report.todos.created).toBe(0);
    expect(report.skipped).toEqual([
      {
        line: 1,
        where: 'line 1',
        reason: 'No column is the title: choose the column that holds the titles',
      },
    ]);
  });
});

describe('Import history and Undo', () => {
  it('lists each import; Undo trashes exactly its todos and groups, leaving the edited ones', async () => {
    const user = await registerUser(ctx.app);
    const api = apiClient(ctx.app, user);
    const mine = (await api(todosApi.create, { body: { title: 'Made here' } })).json<Todo>();
    const report = await imported(ctx.app, user, fixture('vikunja-constructed.zip'), 'vikunja-zip');
    await imported(ctx.app, user, fixture('google-tasks.json'), 'google-tasks-json');
    const history = (await api(transferApi.history)).json<ImportRecord[]>();
    expect(history).toEqual([
      expect.objectContaining({ format: 'google-tasks-json', todos: 4, groups: 2, undoneAt: null }),
      {
        id: report.importId,
        format: 'vikunja-zip',
        fileName: 'upload.csv',
        createdAt: '2026-03-10T12:00:00.000Z',
        todos: 8,
        groups: 2,
        undoneAt: null,
      },
    ]);

    const todos = await todosOf(user);
    const edited = byTitle(todos, 'Pay rent');
    await api(todosApi.patch, { params: { id: edited.id }, body: { title: 'Pay the rent' } });
    // A subtask added since under an imported todo keeps that todo in place.
    const tomatoes = byTitle(todos, 'Plant the tomatoes');
    await api(todosApi.create, { body: { title: 'Stakes', parentId: tomatoes.id } });
    const garden = (await groupsOf(user)).find((group) => group.name === 'Garden');
    const inbox = (await groupsOf(user)).find((group) => group.name === 'Inbox');

    const undone = (
      await api(transferApi.undo, { params: { id: report.importId ?? 0 } })
    ).json<ImportUndo>();
    // Inbox keeps the edited todo, Garden the one holding a new subtask: both stay.
    expect(undone).toEqual({
      trashedTodos: 6,
      deletedGroups: 0,
      keptTodos: [
        { id: edited.id, title: 'Pay the rent', reason: 'Edited since the import' },
        {
          id: tomatoes.id,
          title: 'Plant the tomatoes',
          reason: 'It holds a subtask edited or added since the import',
        },
      ],
      keptGroups: [
        { id: inbox?.id, name: 'Inbox' },
        { id: garden?.id, name: 'Garden' },
      ],
    });
    const left = (await todosOf(user)).map((todo) => todo.title).sort();
    expect(left).toEqual(
      [
        'Made here',
        'Pay the rent',
        'Plant the tomatoes',
        'Stakes',
        // The other import's todos.
        'Renew the passport',
        'Get photos taken',
        'Return the library books',
        'Milk',
      ].sort(),
    );
    expect(byTitle(await todosOf(user), 'Made here').id).toBe(mine.id);
    const trashed = (await api(trashApi.list)).json<Todo[]>().map((todo) => todo.title);
    expect(trashed.sort()).toEqual(
      [
        'Renew the passport',
        'Water the plants',
        'Call Grandma',
        'Back up the laptop',
        'Check the tyres',
        'Buy seedlings',
      ].sort(),
    );
    expect((await groupsOf(user)).map((group) => group.name).sort()).toEqual([
      'Garden',
      'Groceries',
      'Inbox',
      'My Tasks',
    ]);
    const after = (await api(transferApi.history)).json<ImportRecord[]>();
    expect(after[1]?.undoneAt).toBe('2026-03-10T12:00:00.000Z');

    const twice = await api.unchecked(transferApi.undo, { params: { id: report.importId ?? 0 } });
    expect(twice.statusCode).toBe(409);
    const stranger = await registerUser(ctx.app);
    const theirs = await apiClient(ctx.app, stranger).unchecked(transferApi.undo, {
      params: { id: report.importId ?? 0 },
    });
    expect(theirs.statusCode).toBe(404);
    expect((await apiClient(ctx.app, stranger)(transferApi.history)).json()).toEqual([]);

    // The other import, untouched since: all its todos to the trash, its groups deleted.
    const google = after[0]?.id ?? 0;
    expect((await api(transferApi.undo, { params: { id: google } })).json<ImportUndo>()).toEqual({
      trashedTodos: 4,
      deletedGroups: 2,
      keptTodos: [],
      keptGroups: [],
    });
    expect((await groupsOf(user)).map((group) => group.name).sort()).toEqual(['Garden', 'Inbox']);
  });
});
