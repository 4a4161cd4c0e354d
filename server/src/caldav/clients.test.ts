import { groupsApi, todosApi, trashApi } from '@tally/contract';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../test/api-client.js';
import { davAccount, type DavAccount, vtodoFrom } from '../test/caldav.js';
import { createTestApp, pgUrl, type TestContext } from '../test/helpers.js';

/**
 * Real CalDAV clients against a running server (decision 085): Debian's python3-caldav (the library
 * many scripts and apps use), vdirsyncer (the sync engine) and todoman (its to-do app on top), as
 * .ci/run installs them. Each test has its own account and app password.
 */

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(import.meta.dirname, 'clients', 'caldav-client.py');
/** Ports of this suite (3300-3399): one per database, so both runs may overlap. */
const PORT = pgUrl ? 3311 : 3310;
const BASE = `http://127.0.0.1:${PORT}/`;

let ctx: TestContext;
const scratch = mkdtempSync(path.join(tmpdir(), 'tally-caldav-clients-'));

beforeAll(async () => {
  // Installed by .ci/run; elsewhere: apt-get install python3-caldav vdirsyncer todoman.
  for (const [command, args] of [
    [PYTHON, ['-c', 'import caldav']],
    ['vdirsyncer', ['--version']],
    ['todoman', ['--version']],
  ] as const) {
    await run(command, args).catch(() => {
      throw new Error(
        `${command} ${args.join(' ')} failed: install python3-caldav, vdirsyncer and todoman`,
      );
    });
  }
  ctx = await createTestApp();
  await ctx.app.listen({ host: '127.0.0.1', port: PORT });
});
afterAll(async () => {
  await ctx.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface Account extends DavAccount {
  api: ApiClient;
}

async function account(): Promise<Account> {
  const user = await davAccount(ctx.app, { name: 'CalDAV' });
  return { ...user, api: apiClient(ctx.app, user) };
}

/** One step of the python3-caldav client (clients/caldav-client.py), its answer parsed. */
async function py<T>(user: Account, command: string, argument: object = {}): Promise<T> {
  const { stdout } = await run(
    PYTHON,
    [SCRIPT, BASE, user.email, user.appPassword, command, JSON.stringify(argument)],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout) as T;
}

interface ApiTodo {
  id: number;
  title: string;
  description: string | null;
  completed: boolean;
  dueDate: string | null;
  dueTime: string | null;
  startDate: string | null;
  repeat: unknown;
  remindMinutesBefore: number | null;
  tags: string[];
  priority: number;
  parentId: number | null;
  groupId: number | null;
}

const todosOf = async (user: Account) => (await user.api(todosApi.list)).json<ApiTodo[]>();

const vtodo = vtodoFrom('Client');

const vtodoOf = (data: string) => {
  const todo = new ICAL.Component(ICAL.parse(data) as unknown[]).getFirstSubcomponent('vtodo');
  if (!todo) throw new Error(`no VTODO in ${data}`);
  return todo;
};

/** Each step starts a client process (a second or more on a busy machine). */
const CLIENT_TIMEOUT = { timeout: 120_000 };

describe('python3-caldav', CLIENT_TIMEOUT, () => {
  it('discovers the calendars from the base URL alone', async () => {
    const user = await account();
    await user.api(groupsApi.create, { body: { name: 'Work', color: '#8B5CF6' } });
    const found = await py<{ principal: string; calendars: { url: string; name: string }[] }>(
      user,
      'discover',
    );
    expect(found.principal).toBe(`${BASE}dav/principals/${user.id}/`);
    expect(found.calendars.map((c) => c.name).sort()).toEqual(['Todos', 'Work']);
  });

  it('syncs every mapped property both ways', async () => {
    const user = await account();
    await py(user, 'save', {
      calendar: 'Todos',
      ical: vtodo('from-client', [
        'SUMMARY:Renew passport',
        'DESCRIPTION:Photos first',
        'DUE;TZID=Europe/Paris:20260320T170000',
        'DTSTART;TZID=Europe/Paris:20260315T000000',
        'RRULE:FREQ=YEARLY',
        'PRIORITY:5',
        'CATEGORIES:admin,travel',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'TRIGGER;RELATED=END:-PT1H',
        'END:VALARM',
      ]),
    });
    const [saved] = await todosOf(user);
    expect(saved).toMatchObject({
      title: 'Renew passport',
      description: 'Photos first',
      dueDate: '2026-03-20',
      dueTime: '17:00',
      startDate: '2026-03-15',
      repeat: { every: 1, unit: 'year', monthDay: 20, from: 'due' },
      priority: 2,
      tags: ['admin', 'travel'],
      remindMinutesBefore: 60,
      reminders: [60],
      completed: false,
    });

    await user.api(todosApi.create, {
      body: {
        title: 'From the web',
        description: 'Made in Tally',
        dueDate: '2026-04-01',
        dueTime: '08:30',
        repeat: { every: 2, unit: 'week', weekdays: ['mon', 'thu'], from: 'due' },
        remindMinutesBefore: 15,
        tags: ['web'],
        priority: 3,
        startDate: '2026-03-25',
      },
    });
    const listed = await py<{ data: string }[]>(user, 'list', { calendar: 'Todos' });
    const web = listed
      .map((t) => vtodoOf(t.data))
      .find((t) => t.getFirstPropertyValue('summary') === 'From the web');
    expect(web?.getFirstPropertyValue('description')).toBe('Made in Tally');
    // Without a zone of the account's, Tally's times are UTC, never floating.
    expect(String(web?.getFirstPropertyValue('due'))).toBe('2026-04-01T08:30:00Z');
    expect(String(web?.getFirstPropertyValue('dtstart'))).toBe('2026-03-25T00:00:00Z');
    expect(web?.getFirstPropertyValue('rrule')).toMatchObject({
      freq: 'WEEKLY',
      interval: 2,
      parts: { BYDAY: ['MO', 'TH'] },
    });
    expect(web?.getFirstPropertyValue('priority')).toBe(1);
    expect(web?.getFirstPropertyValue('categories')).toBe('web');
    expect(web?.getFirstPropertyValue('status')).toBe('NEEDS-ACTION');
    expect(String(web?.getFirstSubcomponent('valarm')?.getFirstPropertyValue('trigger'))).toBe(
      '-PT15M',
    );
  });

  it('refuses a stale write with 412, then takes it once re-read', async () => {
    const user = await account();
    await py(user, 'save', { calendar: 'Todos', ical: vtodo('conflict', ['SUMMARY:Draft']) });
    const read = await py<{ url: string; etag: string }>(user, 'etag', {
      calendar: 'Todos',
      uid: 'conflict',
    });
    const [todo] = await todosOf(user);
    await user.api.unchecked(todosApi.patch, {
      params: { id: todo?.id },
      body: { title: 'Edited on the web' },
    });
    const stale = await py<{ status: number }>(user, 'put-if-match', {
      url: read.url,
      etag: read.etag,
      ical: vtodo('conflict', ['SUMMARY:Edited on the phone']),
    });
    expect(stale.status).toBe(412);
    expect((await todosOf(user))[0]?.title).toBe('Edited on the web');
    const again = await py<{ url: string; etag: string }>(user, 'etag', {
      calendar: 'Todos',
      uid: 'conflict',
    });
    const resolved = await py<{ status: number }>(user, 'put-if-match', {
      url: again.url,
      etag: again.etag,
      ical: vtodo('conflict', ['SUMMARY:Edited on both']),
    });
    expect(resolved.status).toBe(204);
    expect((await todosOf(user))[0]?.title).toBe('Edited on both');
  });

  it('keeps a subtask tree in both directions', async () => {
    const user = await account();
    await py(user, 'save', {
      calendar: 'Todos',
      ical: vtodo('leaf', ['SUMMARY:Leaf', 'RELATED-TO;RELTYPE=PARENT:branch']),
    });
    await py(user, 'save', {
      calendar: 'Todos',
      ical: vtodo('branch', ['SUMMARY:Branch', 'RELATED-TO:root']),
    });
    await py(user, 'save', { calendar: 'Todos', ical: vtodo('root', ['SUMMARY:Root']) });
    const todos = await todosOf(user);
    const id = (title: string) => todos.find((t) => t.title === title)?.id;
    expect(todos.find((t) => t.title === 'Leaf')?.parentId).toBe(id('Branch'));
    expect(todos.find((t) => t.title === 'Branch')?.parentId).toBe(id('Root'));
    await user.api(todosApi.create, { body: { title: 'Web child', parentId: id('Root') } });
    const listed = await py<{ data: string }[]>(user, 'list', { calendar: 'Todos' });
    const child = listed
      .map((t) => vtodoOf(t.data))
      .find((t) => t.getFirstPropertyValue('summary') === 'Web child');
    expect(child?.getFirstPropertyValue('related-to')).toBe('root');
  });

  it('keeps a repeating todo completed on the client completed, its rule and date as sent', async () => {
    const user = await account();
    await py(user, 'save', {
      calendar: 'Todos',
      ical: vtodo('plants', [
        'SUMMARY:Water plants',
        'DUE;VALUE=DATE:20260310',
        'RRULE:FREQ=DAILY;INTERVAL=3',
      ]),
    });
    // python-caldav's complete(): STATUS:COMPLETED on the VTODO that holds the RRULE.
    await py(user, 'complete', { calendar: 'Todos', uid: 'plants' });
    const [todo] = await todosOf(user);
    expect(todo).toMatchObject({ completed: true, dueDate: '2026-03-10' });
    const read = vtodoOf(
      (await py<{ data: string }>(user, 'get', { calendar: 'Todos', uid: 'plants' })).data,
    );
    expect(read.getFirstPropertyValue('status')).toBe('COMPLETED');
    expect(String(read.getFirstPropertyValue('due'))).toBe('2026-03-10');
    expect(String(read.getFirstPropertyValue('rrule'))).toBe('FREQ=DAILY;INTERVAL=3');
    expect(await py<string[]>(user, 'open', { calendar: 'Todos' })).toEqual([]);
  });

  it('deletes on either side, and an incremental sync names the deletion', async () => {
    const user = await account();
    await py(user, 'save', { calendar: 'Todos', ical: vtodo('keep', ['SUMMARY:Keep']) });
    await py(user, 'save', {
      calendar: 'Todos',
      ical: vtodo('gone-on-phone', ['SUMMARY:Phone deletes']),
    });
    await user.api(todosApi.create, { body: { title: 'Web deletes' } });
    const first = await py<{ token: string; changed: string[] }>(user, 'sync', {
      calendar: 'Todos',
    });
    expect(first.changed).toHaveLength(3);

    await py(user, 'delete', { calendar: 'Todos', uid: 'gone-on-phone' });
    expect((await todosOf(user)).map((t) => t.title).sort()).toEqual(['Keep', 'Web deletes']);
    const trash = await user.api(trashApi.list);
    expect(JSON.stringify(trash.json())).toContain('Phone deletes');

    const web = (await todosOf(user)).find((t) => t.title === 'Web deletes');
    await user.api.unchecked(todosApi.remove, { params: { id: web?.id } });
    const next = await py<{ token: string; changed: string[]; deleted: string[] }>(user, 'sync', {
      calendar: 'Todos',
      token: first.token,
    });
    expect(next.changed).toEqual([]);
    expect(next.deleted).toHaveLength(2);
    expect(next.deleted).toContain(`${BASE}dav/calendars/${user.id}/todos/gone-on-phone.ics`);
  });

  it('reads a calendar of 600 todos, an answer streamed in pieces across pages', async () => {
    const user = await account();
    for (let i = 0; i < 600; i += 1) {
      await user.api(todosApi.create, {
        body: { title: `Todo ${i}`, description: `Line ${i} & <more>` },
      });
    }
    const listed = await py<{ url: string; data: string }[]>(user, 'list', { calendar: 'Todos' });
    expect(listed).toHaveLength(600);
    expect(
      new Set(listed.map((todo) => vtodoOf(todo.data).getFirstPropertyValue('summary'))),
    ).toEqual(new Set(Array.from({ length: 600 }, (_, i) => `Todo ${i}`)));
    const last = listed.find((todo) => todo.data.includes('SUMMARY:Todo 599'));
    expect(vtodoOf(last?.data ?? '').getFirstPropertyValue('description')).toBe(
      'Line 599 & <more>',
    );
  });

  it('keeps properties Tally does not model across three round trips', async () => {
    const user = await account();
    let data = vtodo('rich', [
      'SUMMARY:Rich',
      'X-APPLE-SORT-ORDER:7',
      'X-TASKS-ORG-ORDER;X-KIND=manual:3',
      'GEO:52.52;13.40',
      'ATTACH;FMTTYPE=image/png:https://example.com/p.png',
      'CLASS:PRIVATE',
      'RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1',
      'DUE;VALUE=DATE:20260330',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'TRIGGER;VALUE=DATE-TIME:20260329T090000Z',
      'END:VALARM',
    ]);
    for (let round = 0; round < 3; round += 1) {
      await py(user, 'save', { calendar: 'Todos', ical: data });
      data = (await py<{ data: string }>(user, 'get', { calendar: 'Todos', uid: 'rich' })).data;
    }
    const read = vtodoOf(data);
    expect(read.getFirstPropertyValue('x-apple-sort-order')).toBe('7');
    expect(read.getFirstProperty('x-tasks-org-order')?.toICALString()).toBe(
      'X-TASKS-ORG-ORDER;X-KIND=manual:3',
    );
    expect(read.getFirstProperty('geo')?.toICALString()).toBe('GEO:52.52;13.4');
    expect(read.getFirstPropertyValue('attach')).toBe('https://example.com/p.png');
    expect(read.getFirstPropertyValue('class')).toBe('PRIVATE');
    expect(read.getFirstProperty('rrule')?.toICALString()).toBe(
      'RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1',
    );
    expect(read.getAllSubcomponents('valarm')).toHaveLength(1);
    expect(await todosOf(user)).toHaveLength(1);
  });

  it("shows a second user nothing of the first's", async () => {
    const first = await account();
    const second = await account();
    await py(first, 'save', { calendar: 'Todos', ical: vtodo('secret', ['SUMMARY:First only']) });
    await first.api(groupsApi.create, { body: { name: 'Private', color: '#EF4444' } });
    const found = await py<{ calendars: { name: string }[] }>(second, 'discover');
    expect(found.calendars.map((c) => c.name)).toEqual(['Todos']);
    expect(await py<unknown[]>(second, 'list', { calendar: 'Todos' })).toEqual([]);
    const peek = await ctx.app.inject({
      method: 'GET',
      url: `/dav/calendars/${first.id}/todos/secret.ics`,
      headers: {
        authorization: `Basic ${Buffer.from(`${second.email}:${second.appPassword}`).toString('base64')}`,
      },
    });
    expect(peek.statusCode).toBe(404);
    expect(peek.body).not.toContain('First only');
  });
});

/**
 * A vdirsyncer pair of a local folder and the account's calendars, in vdirsyncer's default
 * configuration (no conflict_resolution: a conflict fails the sync).
 */
function vdirsyncerPair(user: Account) {
  const dir = mkdtempSync(path.join(scratch, 'vdir-'));
  const config = path.join(dir, 'vdirsyncer.conf');
  writeFileSync(
    config,
    [
      '[general]',
      `status_path = "${dir}/status/"`,
      '[pair tally]',
      'a = "local"',
      'b = "remote"',
      'collections = ["from b"]',
      '[storage local]',
      'type = "filesystem"',
      `path = "${dir}/calendars/"`,
      'fileext = ".ics"',
      '[storage remote]',
      'type = "caldav"',
      `url = "${BASE}"`,
      `username = "${user.email}"`,
      `password = "${user.appPassword}"`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_CACHE_HOME: dir };
  const vdirsyncer = async (...args: string[]) =>
    (await run('vdirsyncer', ['-c', config, ...args], { env, timeout: 60_000 })).stdout;
  const discover = async () => {
    const discovered = run('vdirsyncer', ['-c', config, 'discover'], { env, timeout: 60_000 });
    discovered.child.stdin?.end('y\ny\ny\n');
    await discovered;
  };
  return { dir, env, vdirsyncer, discover };
}

/** A resource as GET answers it over HTTP, with the account's app password. */
async function davGet(user: Account, href: string) {
  const response = await fetch(new URL(href, BASE), {
    headers: {
      authorization: `Basic ${Buffer.from(`${user.email}:${user.appPassword}`).toString('base64')}`,
    },
  });
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    body: await response.text(),
  };
}

describe('vdirsyncer and todoman', CLIENT_TIMEOUT, () => {
  it('syncs an upload, edits on both sides and a local delete without a conflict, in its default configuration', async () => {
    const user = await account();
    const { dir, vdirsyncer, discover } = vdirsyncerPair(user);
    const folder = path.join(dir, 'calendars', 'todos');
    // vdirsyncer refuses to sync a collection emptied on one side: one todo stays throughout.
    await user.api(todosApi.create, { body: { title: 'Stays' } });
    await discover();
    await vdirsyncer('sync');

    // Upload: a todo written locally, as a client writes it (UTC due time, no CREATED).
    const file = path.join(folder, 'report.ics');
    const sent = vtodo('report', [
      'SUMMARY:Write the report',
      'DUE:20260320T045959Z',
      'DTSTART:20260318T080000Z',
    ]);
    writeFileSync(file, sent);
    await vdirsyncer('sync');
    const stored = await davGet(user, `/dav/calendars/${user.id}/todos/report.ics`);
    expect(stored.body).toBe(sent);

    // Edited locally, then synced: Tally takes the edit, and serves it exactly as sent.
    const edited = sent.replace('SUMMARY:Write the report', 'SUMMARY:Write the annual report');
    writeFileSync(file, edited);
    await vdirsyncer('sync');
    const [report] = (await todosOf(user)).filter((t) => t.title === 'Write the annual report');
    expect(report).toMatchObject({ dueDate: '2026-03-20', dueTime: '04:59' });
    expect((await davGet(user, `/dav/calendars/${user.id}/todos/report.ics`)).body).toBe(edited);

    // Edited in Tally, then synced: the local copy follows, the due time still in UTC.
    await user.api(todosApi.patch, {
      params: { id: report?.id ?? 0 },
      body: { title: 'Send the annual report' },
    });
    await vdirsyncer('sync');
    const local = vtodoOf(readFileSync(file, 'utf8'));
    expect(local.getFirstPropertyValue('summary')).toBe('Send the annual report');
    expect(local.getFirstProperty('due')?.toICALString()).toBe('DUE:20260320T045959Z');
    expect(local.getFirstProperty('dtstart')?.toICALString()).toBe('DTSTART:20260318T080000Z');
    expect(local.getFirstProperty('created')).toBeNull();

    // Deleted locally, then synced: gone from Tally, and a further sync changes nothing.
    rmSync(file);
    await vdirsyncer('sync');
    expect((await todosOf(user)).map((t) => t.title)).toEqual(['Stays']);
    await vdirsyncer('sync');
    const files = readdirSync(folder).filter((name) => name.endsWith('.ics'));
    expect(files).toHaveLength(1);
    const [only] = files;
    const localStays = vtodoOf(readFileSync(path.join(folder, only ?? ''), 'utf8'));
    expect(localStays.getFirstPropertyValue('summary')).toBe('Stays');
  });

  it('syncs todos made, completed and deleted on either side', async () => {
    const user = await account();
    const { dir, env, vdirsyncer, discover } = vdirsyncerPair(user);
    const todoConfig = path.join(dir, 'todoman.py');
    writeFileSync(
      todoConfig,
      [
        `path = "${dir}/calendars/*"`,
        `cache_path = "${dir}/todoman-cache.sqlite3"`,
        'date_format = "%Y-%m-%d"',
        'time_format = "%H:%M"',
        'default_list = "todos"',
        '',
      ].join('\n'),
    );
    const todoman = async (...args: string[]) =>
      (await run('todoman', ['-c', todoConfig, ...args], { env, timeout: 60_000 })).stdout;
    const local = async () =>
      JSON.parse(await todoman('--porcelain', 'list', '--status', 'ANY')) as {
        id: number;
        summary: string;
        completed: boolean;
        priority: number;
      }[];

    // vdirsyncer refuses to sync a collection emptied on one side: one todo stays throughout.
    await user.api(todosApi.create, { body: { title: 'Stays' } });
    await user.api(todosApi.create, { body: { title: 'Made on the web', priority: 3 } });
    await discover();
    await vdirsyncer('sync');
    expect((await local()).map((t) => [t.summary, t.priority]).sort()).toEqual([
      ['Made on the web', 1],
      ['Stays', 0],
    ]);

    await todoman('new', '-l', 'todos', '--priority', 'low', 'Made in todoman');
    await vdirsyncer('sync');
    expect((await todosOf(user)).map((t) => [t.title, t.priority]).sort()).toEqual([
      ['Made in todoman', 1],
      ['Made on the web', 3],
      ['Stays', 0],
    ]);

    const fromWeb = (await local()).find((t) => t.summary === 'Made on the web');
    await todoman('done', String(fromWeb?.id));
    await vdirsyncer('sync');
    expect((await todosOf(user)).find((t) => t.title === 'Made on the web')?.completed).toBe(true);

    const fromTodoman = (await todosOf(user)).find((t) => t.title === 'Made in todoman');
    await user.api.unchecked(todosApi.remove, { params: { id: fromTodoman?.id } });
    await vdirsyncer('sync');
    expect((await local()).map((t) => t.summary).sort()).toEqual(['Made on the web', 'Stays']);

    const done = (await local()).find((t) => t.summary === 'Made on the web');
    await todoman('delete', '--yes', String(done?.id));
    await vdirsyncer('sync');
    expect((await todosOf(user)).map((t) => t.title)).toEqual(['Stays']);
  });
});
