import {
  groupsApi,
  IMPORT_MAX_BYTES,
  type ImportReport,
  statisticsApi,
  tagsApi,
  type Todo,
  todosApi,
  transferApi,
} from '@tally/contract';
import { setImmediate } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { fixture, formBody, importFile, imported } from '../test/import-helpers.js';

/**
 * POST /api/import with the sample files of each format (./fixtures, made from each format's
 * public description), bad files, encodings and a 10,000-row file; on SQLite, or PostgreSQL
 * when TEST_DATABASE_URL is set. The clock stands at Tuesday 2026-03-10 12:00 UTC; the caller is
 * in Europe/Berlin.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const todosOf = async (user: { token: string }) =>
  (await apiClient(ctx.app, user)(todosApi.list)).json<Todo[]>();
const groupsOf = async (user: { token: string }) =>
  (await apiClient(ctx.app, user)(groupsApi.list)).json<
    { id: number; name: string; color: string }[]
  >();
const byTitle = (todos: Todo[], title: string) => {
  const todo = todos.find((t) => t.title === title);
  if (!todo) throw new Error(`no todo "${title}"`);
  return todo;
};
const reasons = (report: ImportReport) => report.skipped.map((s) => [s.line, s.reason]);

describe('Todoist CSV template', () => {
  const file = fixture('todoist-template.csv');

  it('previews sections as groups, dates, repeats and what it skips, changing nothing', async () => {
    const user = await registerUser(ctx.app);
    const report = await imported(ctx.app, user, file, 'todoist-csv', true);
    expect(report).toMatchObject({
      format: 'todoist-csv',
      dryRun: true,
      encoding: 'UTF-8',
      todos: { created: 10, completed: 0, withDueDate: 9, repeating: 5, alreadyImported: 0 },
      skippedCount: 3,
    });
    expect(report.groups).toEqual([
      { name: 'Work', color: '#3B82F6', existing: false, todos: 4 },
      { name: 'Home', color: '#EF4444', existing: false, todos: 4 },
    ]);
    expect(reasons(report)).toEqual([
      [18, 'It has no title'],
      [20, 'The row has 15 cells; the header names 14'],
      [21, 'Its TYPE "bogus" is not task, section or note'],
    ]);
    expect(report.warnings).toEqual([
      {
        line: 17,
        where: 'line 17',
        message: 'Its date "next spring maybe" is not understood: imported without a due date',
      },
    ]);
    const preview = Object.fromEntries(report.preview.map((todo) => [todo.title, todo]));
    expect(preview['Renew passport']).toMatchObject({
      line: 3,
      group: null,
      dueDate: '2026-04-02',
    });
    expect(preview['Water the plants']).toMatchObject({
      dueDate: '2026-03-10',
      repeat: { every: 3, unit: 'day', from: 'due' },
    });
    expect(preview['Send the invoice']).toMatchObject({
      group: 'Work',
      dueDate: '2026-04-01',
      repeat: { every: 1, unit: 'month', monthDay: 1, from: 'due' },
    });
    expect(preview['Prepare slides']).toMatchObject({ dueDate: '2026-03-11', dueTime: '09:00' });
    expect(preview['Stand-up notes']).toMatchObject({
      dueDate: '2026-03-10',
      dueTime: '09:30',
      repeat: { unit: 'week', weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'] },
    });
    expect(preview['Quarterly review']).toMatchObject({
      line: 11,
      dueDate: '2026-03-27',
      repeat: { unit: 'month', nthWeekday: { n: -1, weekday: 'fri' } },
    });
    expect(preview['Call Grandma']).toMatchObject({
      group: 'Home',
      dueDate: '2026-03-15',
      repeat: { unit: 'week', weekdays: ['sun'], from: 'completion' },
    });
    expect(preview['Pay rent']).toMatchObject({ dueDate: '2026-10-01', dueTime: '10:00' });
    expect(preview['Plan the holiday']).toMatchObject({ dueDate: '2026-07-15', repeat: null });
    expect(await todosOf(user)).toEqual([]);
    expect(await groupsOf(user)).toEqual([]);
  });

  it('imports it, comments into descriptions, and a second import creates nothing', async () => {
    const user = await registerUser(ctx.app);
    const first = await imported(ctx.app, user, file, 'todoist-csv');
    expect(first.dryRun).toBe(false);
    expect(first.todos.created).toBe(10);
    const todos = await todosOf(user);
    expect(todos).toHaveLength(10);
    const groups = await groupsOf(user);
    expect(groups.map((g) => g.name).sort()).toEqual(['Home', 'Work']);
    expect(byTitle(todos, 'Renew passport').description).toBe(
      'Photos from the booth on Main St\n\nForms are at the town hall, room 2',
    );
    expect(byTitle(todos, 'Send the invoice')).toMatchObject({
      description: 'Net 30, as agreed with "ACME"',
      groupId: groups.find((g) => g.name === 'Work')?.id,
    });
    expect(byTitle(todos, 'Quarterly review').description).toBe('Agenda:\n- numbers\n- hiring');

    const again = await imported(ctx.app, user, file, 'todoist-csv');
    expect(again.todos).toMatchObject({ created: 0, alreadyImported: 10 });
    expect(again.groups.every((group) => group.existing)).toBe(true);
    expect(await todosOf(user)).toHaveLength(10);
    expect(await groupsOf(user)).toHaveLength(2);
  });

  it('matches groups by name, ignoring case, in the caller’s account', async () => {
    const user = await registerUser(ctx.app);
    await apiClient(ctx.app, user)(groupsApi.create, { body: { name: 'work', color: '#10B981' } });
    const report = await imported(ctx.app, user, file, 'todoist-csv');
    expect(report.groups[0]).toEqual({ name: 'work', color: '#10B981', existing: true, todos: 4 });
    expect(report.groups[1]).toMatchObject({ name: 'Home', existing: false });
    expect(await groupsOf(user)).toHaveLength(2);
  });
});

describe('Todoist CSV: labels, priorities, indented subtasks', () => {
  const csv = [
    'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE',
    'task,Plan the move @home @Big,Boxes first,1,1,Sam,,,en,',
    'task,Book a van @errands,,2,2,Sam,,,en,',
    'task,Compare prices,,3,3,Sam,,,en,',
    'task,Call the landlord @home,,4,2,Sam,,,en,',
    'task,Too deep,,4,6,Sam,,,en,',
    'task,Water plants,,4,1,Sam,,,en,',
  ].join('\n');

  it('maps @labels to tags, PRIORITY 1-4 to 3-0 and INDENT to subtasks', async () => {
    const user = await registerUser(ctx.app);
    const report = await imported(ctx.app, user, csv, 'todoist-csv');
    expect(report.todos.created).toBe(6);
    expect(report.warnings.map((w) => [w.line, w.message])).toEqual([
      [6, "Indented 6 levels: kept at 4, Tally's deepest"],
    ]);
    const todos = await todosOf(user);
    const idOf = (title: string) => byTitle(todos, title).id;
    expect(
      Object.fromEntries(
        todos.map((todo) => [
          todo.title,
          [todo.tags, todo.priority, todo.parentId, todo.description],
        ]),
      ),
    ).toEqual({
      'Plan the move': [['Big', 'home'], 3, null, 'Boxes first'],
      'Book a van': [['errands'], 2, idOf('Plan the move'), null],
      'Compare prices': [[], 1, idOf('Book a van'), null],
      'Call the landlord': [['home'], 0, idOf('Plan the move'), null],
      'Too deep': [[], 0, idOf('Call the landlord'), null],
      'Water plants': [[], 0, null, null],
    });
    const tags = (await apiClient(ctx.app, user)(tagsApi.list)).json();
    expect(tags).toEqual([
      { name: 'Big', color: null, count: 1 },
      { name: 'errands', color: null, count: 1 },
      { name: 'home', color: null, count: 2 },
    ]);
  });
});

describe('written in batches (decision 096)', () => {
  it('lets other requests in between its batches: a reader sees the rows arrive', async () => {
    const user = await registerUser(ctx.app);
    const csv = ['TYPE,CONTENT', ...Array.from({ length: 2_000 }, (_, i) => `task,Row ${i}`)];
    let done = false;
    const importing = imported(ctx.app, user, csv.join('\n'), 'todoist-csv').finally(() => {
      done = true;
    });
    const seen = new Set<number>();
    while (!done) {
      seen.add((await todosOf(user)).length);
      // A request comes in from the network, on a turn of its own (inject can answer from
      // SQLite without ever leaving the microtask queue).
      await setImmediate();
    }
    expect((await importing).todos.created).toBe(2_000);
    // One transaction for the whole file would show 0 todos, then all of them.
    expect([...seen].some((count) => count > 0 && count < 2_000)).toBe(true);
  }, 60_000);

  it('adds what an interrupted import left out, under the parents it wrote', async () => {
    const user = await registerUser(ctx.app);
    const csv = [
      'TYPE,CONTENT,PRIORITY,INDENT',
      'task,Plan the move @home,1,1',
      'task,Book a van,2,2',
      'task,Compare prices,3,3',
      'task,Call the landlord @home,4,2',
    ];
    await imported(ctx.app, user, csv.slice(0, 3).join('\n'), 'todoist-csv');
    const report = await imported(ctx.app, user, csv.join('\n'), 'todoist-csv');
    expect(report.todos).toMatchObject({ created: 2, alreadyImported: 2 });
    const todos = await todosOf(user);
    expect(todos).toHaveLength(4);
    const idOf = (title: string) => byTitle(todos, title).id;
    expect(byTitle(todos, 'Call the landlord')).toMatchObject({
      parentId: idOf('Plan the move'),
      tags: ['home'],
    });
    expect(byTitle(todos, 'Compare prices').parentId).toBe(idOf('Book a van'));
  });
});

describe('TickTick backup CSV', () => {
  const file = fixture('ticktick-backup.csv');

  it('reads lists as groups, due instants in the row’s zone, RRULEs and statuses', async () => {
    const user = await registerUser(ctx.app);
    const report = await imported(ctx.app, user, file, 'ticktick-csv', true);
    // 11 tasks and the 3 items of a checklist.
    expect(report.todos).toEqual({
      created: 14,
      completed: 3,
      withDueDate: 7,
      repeating: 3,
      alreadyImported: 0,
    });
    expect(report.groups.map((g) => [g.name, g.todos])).toEqual([
      ['Errands', 2],
      ['Work', 3],
      ['Home', 8],
    ]);
    expect(reasons(report)).toEqual([
      [13, 'It is marked "won\'t do" in TickTick'],
      [14, 'It is a note, not a task'],
      [23, 'The row has 27 cells; the header names 25'],
    ]);
    expect(report.warnings.map((w) => [w.line, w.message])).toEqual([
      [
        10,
        'Imported without the tags "bad tag": a tag is 1-30 characters without spaces or commas',
      ],
      [17, "Imported without its repeat: TickTick's repeats on chosen dates have no equivalent"],
      [22, 'Its repeat is kept without its end (Tally repeats have none)'],
    ]);
  });

  it('imports them with their dates, completions on their own days, and only once', async () => {
    const user = await registerUser(ctx.app);
    await imported(ctx.app, user, file, 'ticktick-csv');
    const todos = await todosOf(user);
    expect(todos).toHaveLength(14);
    expect(byTitle(todos, 'Buy groceries')).toMatchObject({
      tags: ['shopping'],
      priority: 3,
      description: 'Milk, eggs and "good" bread',
      dueDate: '2026-03-15',
      dueTime: '10:30',
      created: '2026-01-10T08:00:00.000Z',
      completed: false,
    });
    expect(byTitle(todos, 'Pick up the parcel')).toMatchObject({
      priority: 1,
      dueDate: '2026-03-17',
      dueTime: null,
    });
    expect(byTitle(todos, 'Team sync')).toMatchObject({
      tags: ['meetings', 'work'],
      priority: 2,
      description: 'Agenda: [notes](https://example.com)',
      dueDate: '2026-03-16',
      dueTime: '09:00',
      repeat: { every: 1, unit: 'week', weekdays: ['mon', 'wed'], from: 'due' },
    });
    expect(byTitle(todos, 'Board meeting').repeat).toEqual({
      every: 1,
      unit: 'month',
      nthWeekday: { n: 2, weekday: 'tue' },
      from: 'due',
    });
    expect(byTitle(todos, 'Water the garden').repeat).toEqual({
      every: 2,
      unit: 'day',
      from: 'due',
    });
    expect(byTitle(todos, 'Expense report')).toMatchObject({ completed: true });
    expect(byTitle(todos, 'Inbox thought').groupId).toBeNull();
    // A checklist's items are its subtasks (▪ done), as is the task naming it as parentId.
    const packing = byTitle(todos, 'Packing list');
    expect(packing).toMatchObject({ description: null, completed: true, parentId: null });
    expect(
      todos
        .filter((todo) => todo.parentId === packing.id)
        .map((todo) => [todo.title, todo.completed])
        .sort(),
    ).toEqual([
      ['Charger', false],
      ['Charger', true],
      ['Passport', false],
      ['Toothbrush', false],
    ]);
    expect(byTitle(todos, "=cmd|'/C calc'!A0")).toBeDefined();

    // Counted as made and completed on the source's dates (docs/decisions/051).
    const since = async (date: string) =>
      (
        await apiClient(ctx.app, user)(statisticsApi.since, {
          query: { since: date },
          headers: { 'x-time-zone': 'Europe/Berlin' },
        })
      ).json<{ todosCreated: number; todosCompleted: number; groupsCreated: number }>();
    expect(await since('2026-01-01')).toMatchObject({
      todosCreated: 14,
      todosCompleted: 3,
      groupsCreated: 3,
    });
    expect(await since('2026-03-06')).toMatchObject({ todosCreated: 0, todosCompleted: 0 });
    const completions = await ctx.database.handle.db
      .selectFrom('todo_completions')
      .select(['completed_at', 'due_date', 'on_time'])
      .where('user_id', '=', user.id)
      .orderBy('completed_at')
      .execute();
    expect(completions.map((c) => [Number(c.completed_at), c.due_date, c.on_time])).toEqual([
      [Date.parse('2026-02-03T16:45:00Z'), '2026-02-04', 1],
      [Date.parse('2026-03-05T18:00:00Z'), null, null],
      [Date.parse('2026-03-05T18:00:00Z'), null, null],
    ]);

    const again = await imported(ctx.app, user, file, 'ticktick-csv');
    expect(again.todos).toMatchObject({ created: 0, alreadyImported: 14 });
    expect(await todosOf(user)).toHaveLength(14);
    expect(await since('2026-01-01')).toMatchObject({ todosCreated: 14, todosCompleted: 3 });
  });
});

describe('encodings', () => {
  const text = fixture('todoist-template.csv').toString('utf8');

  it('reads UTF-16LE with a byte-order mark as UTF-8 reads it', async () => {
    const user = await registerUser(ctx.app);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const report = await imported(ctx.app, user, utf16, 'todoist-csv', true);
    const utf8 = await imported(ctx.app, user, text, 'todoist-csv', true);
    expect(report.encoding).toBe('UTF-16LE');
    expect({ ...report, encoding: 'UTF-8' }).toEqual(utf8);
  });

  it('reads UTF-16BE with a mark, and UTF-8 with its mark', async () => {
    const user = await registerUser(ctx.app);
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.alloc(le.length);
    for (let i = 0; i < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1] ?? 0, le[i] ?? 0];
    const utf16be = Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
    expect((await imported(ctx.app, user, utf16be, 'todoist-csv', true)).todos.created).toBe(10);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const report = await imported(ctx.app, user, bom, 'todoist-csv', true);
    expect(report).toMatchObject({ encoding: 'UTF-8', todos: { created: 10 } });
  });

  it('reads a file that is not UTF-8 as Windows-1252 (a spreadsheet’s "CSV" on Windows)', async () => {
    const user = await registerUser(ctx.app);
    const csv = 'TYPE,CONTENT,DESCRIPTION,DATE\r\ntask,Café mit Müller,Preis: 5 \x80,\r\n';
    // latin1 writes é and ü as Windows-1252 does; \x80 is the euro sign there.
    const report = await imported(ctx.app, user, Buffer.from(csv, 'latin1'), 'todoist-csv');
    expect(report.encoding).toBe('Windows-1252');
    expect((await todosOf(user))[0]).toMatchObject({
      title: 'Café mit Müller',
      description: 'Preis: 5 €',
    });
  });
});

describe('refusals', () => {
  let user: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    user = await registerUser(ctx.app);
  });
  const refused = async (bytes: Uint8Array | string, format: string, status = 400) => {
    const response = await importFile(ctx.app, user, bytes, format);
    expect(response.statusCode, response.body).toBe(status);
    return response.json<{ error: string }>().error;
  };

  it('names the problem when the file is not of the format chosen', async () => {
    expect(await refused(fixture('ticktick-backup.csv'), 'todoist-csv')).toMatch(
      /^This is not a Todoist CSV template: its first line must name the columns TYPE and CONTENT; it starts with "Date: 2026-03-08\+0000"/,
    );
    expect(await refused(fixture('todoist-template.csv'), 'ticktick-csv')).toBe(
      'This is not a TickTick backup: no header row naming the columns "List Name" and "Title" was found near the top',
    );
    expect(await refused(fixture('todoist-template.csv'), 'tally-json')).toMatch(
      /^The file is not valid JSON: /,
    );
    expect(await refused('[1, 2]', 'tally-json')).toMatch(/^This is not a Tally export/);
    expect(await refused('{"version": 5, "todos": []}', 'tally-json')).toBe(
      'This Tally export is version 5; this server reads versions 1, 2, 3 and 4',
    );
    expect(await refused('{"version": 1}', 'tally-json')).toBe('The export has no "todos" list');
  });

  it('refuses empty, binary and zipped files', async () => {
    expect(await refused('', 'todoist-csv')).toBe('The file is empty');
    expect(await refused(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]), 'todoist-csv')).toMatch(
      /^The file is a ZIP archive/,
    );
    expect(await refused(Buffer.from('TYPE,CONTENT\u0000\u0001'), 'todoist-csv')).toBe(
      'The file is not text (it holds NUL bytes): choose a CSV or JSON file',
    );
  });

  it('refuses a file over 10 MB with a 413', async () => {
    const big = Buffer.alloc(IMPORT_MAX_BYTES + 1, 'a');
    expect(await refused(big, 'todoist-csv', 413)).toBe('The file is larger than 10 MB');
  });

  it('refuses more than 10,000 todos', async () => {
    const rows = ['TYPE,CONTENT', ...Array.from({ length: 10_001 }, (_, i) => `task,Todo ${i}`)];
    expect(await refused(rows.join('\n'), 'todoist-csv')).toBe(
      'The file has more than 10,000 todos; an import takes at most 10,000',
    );
    expect(await todosOf(user)).toEqual([]);
  });

  it('checks the form: format, dryRun, the file field, multipart itself', async () => {
    expect(await refused('x', 'xlsx')).toBe(
      'format must be one of tally-json, tally-csv, todoist-csv, ticktick-csv, google-tasks-json, vikunja-zip, ics, csv',
    );
    const send = async (
      fields: Record<string, string>,
      file?: { bytes: Buffer; field?: string },
    ) => {
      const { payload, headers } = await formBody(fields, file);
      const response = await apiClient(ctx.app, user).unchecked(transferApi.import, {
        body: payload,
        headers,
      });
      return [response.statusCode, response.json<{ error: string }>().error];
    };
    expect(await send({ format: 'tally-json' })).toEqual([
      400,
      'file is required: the file to import',
    ]);
    expect(await send({}, { bytes: Buffer.from('{}') })).toEqual([
      400,
      'format is required: one of tally-json, tally-csv, todoist-csv, ticktick-csv, google-tasks-json, vikunja-zip, ics, csv',
    ]);
    expect(
      await send({ format: 'tally-json', dryRun: 'yes' }, { bytes: Buffer.from('{}') }),
    ).toEqual([400, 'dryRun must be true or false']);
    expect(
      await send({ format: 'tally-json' }, { bytes: Buffer.from('{}'), field: 'upload' }),
    ).toEqual([400, 'The file must be sent as the field "file", not "upload"']);
    const json = await apiClient(ctx.app, user).unchecked(transferApi.import, {
      body: { file: 'x', format: 'tally-json' },
    });
    expect([json.statusCode, json.json<{ error: string }>().error]).toEqual([
      415,
      'Content-Type must be multipart/form-data (a file upload)',
    ]);
    const broken = await apiClient(ctx.app, user).unchecked(transferApi.import, {
      body: 'format=tally-json',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect([broken.statusCode, broken.json<{ error: string }>().error]).toEqual([
      400,
      'The request body is not a valid multipart/form-data form',
    ]);
    const anonymous = await apiClient(ctx.app, null).unchecked(transferApi.import);
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('reading in a stream', () => {
  const refused = async (bytes: string, format: string) => {
    const response = await importFile(ctx.app, await registerUser(ctx.app), bytes, format);
    expect(response.statusCode, response.body).toBe(400);
    return response.json<{ error: string }>().error;
  };

  it('stops reading at the 10,001st todo, whatever follows, in every format', async () => {
    // Before: the whole file was read first, then refused with its count ("has 30,000 todos").
    const tasks = Array.from({ length: 30_000 }, (_, i) => `task,Todo ${i}`);
    const message = 'The file has more than 10,000 todos; an import takes at most 10,000';
    expect(await refused(['TYPE,CONTENT', ...tasks].join('\n'), 'todoist-csv')).toBe(message);
    const ticktick = ['"List Name","Title"', ...tasks.map((_, i) => `"L","T${i}"`)].join('\n');
    expect(await refused(ticktick, 'ticktick-csv')).toBe(message);
    const tally = {
      version: 1,
      todos: Array.from({ length: 30_000 }, (_, i) => ({ id: i, title: `T${i}` })),
    };
    expect(await refused(JSON.stringify(tally), 'tally-json')).toBe(message);
  });

  it('reads a file in slices without breaking a CRLF or a character at their seams', async () => {
    const user = await registerUser(ctx.app);
    const header = 'TYPE,CONTENT\r\n';
    // The parser takes 65,536 characters at a time: put a \r, then an emoji, on the seam.
    const upTo = (at: number, end: string) =>
      `${header}task,${'x'.repeat(at - header.length - 5 - end.length)}${end}`;
    const crlf = `${upTo(65_535, '')}\r\ntask,After\r\n`;
    expect(crlf.slice(65_535, 65_537)).toBe('\r\n');
    const emoji = `${upTo(65_535, '\r\ntask,')}🎉 party\r\n`;
    expect(emoji.slice(65_535, 65_537)).toBe('🎉');
    for (const [text, second] of [
      [crlf, 'After'],
      [emoji, '🎉 party'],
    ] as const) {
      const report = await imported(ctx.app, user, text, 'todoist-csv', true);
      expect(report.skipped).toEqual([]);
      expect(report.preview.map((todo) => [todo.line, todo.title.length])).toEqual([
        [2, 200],
        [3, second.length],
      ]);
      expect(report.preview[1]?.title).toBe(second);
    }
  });
});

describe('malformed rows', () => {
  it('skips a row whose quote is never closed, with its line, and keeps the rest', async () => {
    const user = await registerUser(ctx.app);
    const csv = [
      'TYPE,CONTENT,DESCRIPTION,DATE',
      'task,Fine,,',
      'task,"Also ""fine""",,tomorrow',
      'task,"Never closed,,',
      '',
    ].join('\n');
    const report = await imported(ctx.app, user, csv, 'todoist-csv', true);
    expect(report.todos.created).toBe(2);
    expect(reasons(report)).toEqual([[4, 'The row cannot be read: a quote is never closed']]);
  });

  it('keeps the todos of a Tally export whose other entries are broken', async () => {
    const user = await registerUser(ctx.app);
    const file = {
      version: 1,
      groups: [{ id: 1, name: '' }, { id: 2, name: 'Ok', color: '#123456' }, 'junk'],
      todos: [
        { id: 1, title: 'Good', groupId: 2, completed: false },
        { id: 2, title: '   ' },
        'not a todo',
        { id: 3, title: 'Lost group', groupId: 99 },
        { id: 4, title: 'Bad repeat', dueDate: '2026-04-01', repeat: { every: 0, unit: 'day' } },
        { id: 5, title: 'Bad date', dueDate: '2026-02-30', dueTime: '10:00' },
        { id: 6, title: 'x'.repeat(250) },
      ],
    };
    const report = await imported(ctx.app, user, JSON.stringify(file), 'tally-json', true);
    expect(report.todos.created).toBe(5);
    expect(report.groups).toEqual([{ name: 'Ok', color: '#3B82F6', existing: false, todos: 1 }]);
    expect(report.skipped.map((s) => [s.where, s.reason])).toEqual([
      ['group 1', 'The group has no name'],
      ['group 3', 'The group has no name'],
      ['todo 2', 'It has no title'],
      ['todo 3', 'It is not a todo (an object with a title)'],
    ]);
    expect(report.warnings.map((w) => [w.where, w.message])).toEqual([
      ['todo 4', 'Its group (id 99) is not in the file: imported without a group'],
      ['todo 5', 'Its repeat rule is not one Tally knows: imported without it'],
      [
        'todo 6',
        'Imported without its due date, due time: dueDate must be a real calendar date (YYYY-MM-DD)',
      ],
      ['todo 7', 'The title was cut to 200 characters'],
    ]);
  });
});

describe('Tally export version 2', () => {
  it('gives a subtask written before its parent a new version when it is linked to it', async () => {
    const user = await registerUser(ctx.app);
    // The first todo's parent is the last, 500 todos later: a later batch (decision 096) links
    // it, after its own batch was committed and could be read.
    const count = 501;
    const file = {
      version: 2,
      todos: Array.from({ length: count }, (_, i) => ({
        id: i + 1,
        title: `T${i + 1}`,
        parentId: i === 0 ? count : null,
      })),
    };
    const report = await imported(ctx.app, user, JSON.stringify(file), 'tally-json');
    expect(report.todos.created).toBe(count);
    const todos = await todosOf(user);
    const child = byTitle(todos, 'T1');
    expect(child.parentId).toBe(byTitle(todos, `T${count}`).id);
    expect(child.version).toBe(2);
    expect(byTitle(todos, 'T2').version).toBe(1);
  });

  it('keeps subtasks, tags and start dates, and mends what a hand-made file gets wrong', async () => {
    const user = await registerUser(ctx.app);
    const todo = (id: number, parentId: number | null, extra: object = {}) => ({
      id,
      title: `T${id}`,
      parentId,
      ...extra,
    });
    const file = {
      version: 2,
      tags: [
        { name: 'Home', color: '#10B981' },
        { name: 'odd', color: '#123456' },
      ],
      todoSorts: { all: 'priority', 'group-9': 'due', bad: 'sideways' },
      todos: [
        // A loop: 1 under 2 under 1.
        todo(1, 2),
        todo(2, 1),
        // Five levels: 3 ← 4 ← 5 ← 6 ← 7.
        todo(3, null),
        todo(4, 3),
        todo(5, 4),
        todo(6, 5),
        todo(7, 6),
        todo(8, 404),
        todo(9, null, {
          tags: ['home', 'two words', 'x'.repeat(31), 'fine'],
          priority: 2,
          startDate: '2026-02-30',
        }),
        todo(10, 9, { startDate: '2026-04-01', priority: 7 }),
      ],
    };
    const report = await imported(ctx.app, user, JSON.stringify(file), 'tally-json');
    expect(report.todos.created).toBe(10);
    expect(report.warnings.map((w) => [w.where, w.message])).toEqual([
      [
        'todo 9',
        `Imported without the tags "two words", "${'x'.repeat(31)}": a tag is 1-30 characters without spaces or commas`,
      ],
      ['todo 9', 'Its start date "2026-02-30" is not a date: imported without one'],
      ['todo 8', 'Its parent (id 404) is not in the file: imported at the top level'],
      ['todo 1', 'Its parent is its own subtask: imported at the top level'],
      ['todo 7', 'It is nested deeper than 4 levels: imported at the top level'],
    ]);
    const todos = await todosOf(user);
    const parentOf = (title: string) => {
      const parentId = byTitle(todos, title).parentId;
      return parentId === null ? null : todos.find((t) => t.id === parentId)?.title;
    };
    expect(['T1', 'T2', 'T4', 'T6', 'T7', 'T8', 'T10'].map(parentOf)).toEqual([
      null,
      'T1',
      'T3',
      'T5',
      null,
      null,
      'T9',
    ]);
    // The declared spelling wins; a colour not among the swatches is none.
    expect(byTitle(todos, 'T9')).toMatchObject({ tags: ['fine', 'Home'], priority: 2 });
    expect(byTitle(todos, 'T10')).toMatchObject({ startDate: '2026-04-01', priority: 0 });
    const tags = await apiClient(ctx.app, user)(tagsApi.list);
    expect(tags.json()).toEqual([
      { name: 'fine', color: null, count: 1 },
      { name: 'Home', color: '#10B981', count: 1 },
      { name: 'odd', color: null, count: 0 },
    ]);
    const sorts = await apiClient(ctx.app, user)(todosApi.sorts);
    expect(sorts.json()).toEqual({ all: 'priority' });
  });

  it('keeps every position finite, also after moving between huge ones', async () => {
    const user = await registerUser(ctx.app);
    const api = apiClient(ctx.app, user);
    // Written by hand: JSON.stringify cannot write 1.8e308, which JSON.parse reads as Infinity.
    const file = `{"version":2,"todos":[
      {"id":1,"title":"Low","position":-1.8e308},
      {"id":2,"title":"Lower","position":-1.7e308},
      {"id":3,"title":"Middle","position":0},
      {"id":4,"title":"High","position":1.7e308},
      {"id":5,"title":"Higher","position":1.79e308},
      {"id":6,"title":"Highest","position":1.8e308}]}`;
    const report = await imported(ctx.app, user, file, 'tally-json');
    expect(report.todos.created).toBe(6);
    const listed = await todosOf(user);
    // Between two huge neighbours a midpoint would overflow to Infinity, answered as null.
    const moved = await api(todosApi.move, {
      params: { id: byTitle(listed, 'Middle').id },
      body: { beforeId: byTitle(listed, 'Higher').id },
    });
    expect(moved.statusCode).toBe(200);
    const lowest = await api(todosApi.move, {
      params: { id: byTitle(listed, 'Highest').id },
      body: { afterId: byTitle(listed, 'Lower').id },
    });
    expect(lowest.statusCode).toBe(200);
    const todos = await todosOf(user);
    for (const todo of todos) expect(Number.isFinite(todo.position)).toBe(true);
    const manual = await api(todosApi.list, { query: { sort: 'manual' } });
    expect(manual.json<Todo[]>().map((todo) => todo.title)).toEqual([
      'Low',
      'Lower',
      'Highest',
      'High',
      'Middle',
      'Higher',
    ]);
  });

  it('leaves the colours and sorts the account chose as they are', async () => {
    const user = await registerUser(ctx.app);
    const api = apiClient(ctx.app, user);
    await api(todosApi.create, { body: { title: 'Mine', tags: ['home'] } });
    await api(tagsApi.update, { params: { name: 'home' }, body: { color: '#EF4444' } });
    await api(todosApi.setSort, { body: { view: 'all', sort: 'title' } });
    const file = {
      version: 2,
      tags: [{ name: 'HOME', color: '#10B981' }],
      todoSorts: { all: 'manual', today: 'due' },
      todos: [{ id: 1, title: 'Theirs', tags: ['HOME'] }],
    };
    await imported(ctx.app, user, JSON.stringify(file), 'tally-json');
    expect((await api(tagsApi.list)).json()).toEqual([
      { name: 'home', color: '#EF4444', count: 2 },
    ]);
    expect((await api(todosApi.sorts)).json()).toEqual({
      all: 'title',
      today: 'due',
    });
  });
});

describe('Tally export completions', () => {
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();
  const totalCompleted = async (user: { token: string }) =>
    (await apiClient(ctx.app, user)(statisticsApi.total)).json<{
      todosCompleted: number;
    }>().todosCompleted;

  it('ties a completion only to the todo it names, at most the latest 100 per todo', async () => {
    const user = await registerUser(ctx.app);
    const file = {
      version: 1,
      groups: [],
      todos: [
        ...Array.from({ length: 30 }, (_, i) => ({ title: `No id ${i}`, completed: false })),
        { id: 7, title: 'Daily', completed: false },
        { id: 8, title: 'Twice', completed: false },
      ],
      completions: [
        // Before: each of these went to each of the 30 todos without an id (900 rows).
        ...Array.from({ length: 30 }, (_, i) => ({ todoId: null, completedAt: day(i) })),
        ...Array.from({ length: 150 }, (_, i) => ({ todoId: 7, completedAt: day(i) })),
        { todoId: 8, completedAt: day(1) },
        { todoId: 8, completedAt: day(2) },
        { todoId: 99, completedAt: day(3) },
      ],
    };
    const skips = [
      ['todo 31', 'It has 150 completions; an import keeps the latest 100 of a todo: 50 left out'],
      [
        'completions',
        '31 completions name no todo imported (its todoId is null, or no todo of the file has it): left out',
      ],
    ];
    const preview = await imported(ctx.app, user, JSON.stringify(file), 'tally-json', true);
    expect(preview.skipped.map((s) => [s.where, s.reason])).toEqual(skips);
    expect(preview.skippedCount).toBe(2);

    const report = await imported(ctx.app, user, JSON.stringify(file), 'tally-json');
    expect(report.skipped.map((s) => [s.where, s.reason])).toEqual(skips);
    expect(report.todos.created).toBe(32);
    expect(await totalCompleted(user)).toBe(102);
  });

  it('takes at most 100,000 completions in one import, and says how many it left out', async () => {
    const user = await registerUser(ctx.app);
    const file = {
      version: 1,
      todos: Array.from({ length: 1001 }, (_, i) => ({ id: i + 1, title: `T${i}` })),
      completions: Array.from({ length: 1001 * 100 }, (_, i) => ({
        todoId: Math.floor(i / 100) + 1,
        completedAt: day(i % 100),
      })),
    };
    const preview = await imported(ctx.app, user, JSON.stringify(file), 'tally-json', true);
    expect(preview.skipped.map((s) => [s.where, s.reason])).toEqual([
      [
        'completions',
        'An import takes at most 100,000 completions: 100 of the last todos left out',
      ],
    ]);
  });
});

describe('a 10,000-row file', () => {
  it('imports in one go (timed by bench/import.mjs, not here)', async () => {
    const user = await registerUser(ctx.app);
    const header =
      '"Folder Name","List Name","Title","Kind","Tags","Content","Is Check list","Start Date","Due Date","Reminder","Repeat","Priority","Status","Created Time","Completed Time","Order","Timezone","Is All Day","taskId"';
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      [
        '',
        `List ${i % 12}`,
        `Task ${i}`,
        'TEXT',
        '',
        i % 3 === 0 ? `Notes for ${i}` : '',
        'N',
        '',
        i % 2 === 0 ? '2026-04-01T08:00:00+0000' : '',
        '',
        i % 10 === 0 ? 'RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO' : '',
        '0',
        i % 4 === 0 ? '2' : '0',
        '2026-01-01T00:00:00+0000',
        i % 4 === 0 ? '2026-02-01T00:00:00+0000' : '',
        String(i),
        'UTC',
        'false',
        `id${i}`,
      ]
        .map((cell) => `"${cell}"`)
        .join(','),
    );
    const csv = ['"Date: 2026-03-08+0000"', '"Version: 7.1"', header, ...rows].join('\n');
    const report = await imported(ctx.app, user, csv, 'ticktick-csv');
    expect(report.todos).toMatchObject({ created: 10_000, completed: 2_500, repeating: 1_000 });
    expect(report.groups).toHaveLength(12);
    const count = await ctx.database.handle.db
      .selectFrom('todos')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10_000);
    const again = await imported(ctx.app, user, csv, 'ticktick-csv', true);
    expect(again.todos).toMatchObject({ created: 0, alreadyImported: 10_000 });
  }, 60_000);
});

describe('limits', () => {
  it('takes 20 imports a minute per account, previews included, then answers 429 {error}', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const file = fixture('todoist-template.csv');
    for (let i = 0; i < 20; i++) {
      expect((await importFile(ctx.app, user, file, 'todoist-csv', true)).statusCode).toBe(200);
    }
    const refused = await importFile(ctx.app, user, file, 'todoist-csv', true);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: expect.stringMatching(/^Too many attempts/) });
    expect((await importFile(ctx.app, other, file, 'todoist-csv', true)).statusCode).toBe(200);
  });
});
