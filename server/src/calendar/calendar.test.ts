import { calendarApi, groupsApi, type Repeat, todosApi } from '@tally/contract';
import { TZDate } from '@date-fns/tz';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';

/**
 * The calendar feed (docs/product.md, Calendar feed): Settings' calls, and the feed itself read
 * back with an independent parser (ical.js), field by field.
 */

const HOST = 'tally.example.com';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ config: { publicUrl: `https://${HOST}` } });
});
afterAll(() => ctx.close());

interface Feed {
  path: string;
  timeZone: string;
  createdAt: string;
}

async function makeFeed(user: TestUser, zone?: string): Promise<Feed> {
  const response = await apiClient(ctx.app, user)(calendarApi.regenerate, {
    headers: zone ? { 'x-time-zone': zone } : {},
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Feed>();
}

const fetchFeed = (path: string, headers: Record<string, string | undefined> = {}) =>
  ctx.app.inject({ method: 'GET', url: path, headers });

interface TodoInput {
  title: string;
  description?: string | null;
  groupId?: number | null;
  dueDate?: string | null;
  dueTime?: string | null;
  repeat?: Repeat | null;
  tags?: string[];
  priority?: number;
  parentId?: number | null;
  startDate?: string | null;
}

async function addTodo(user: TestUser, todo: TodoInput): Promise<number> {
  const response = await apiClient(ctx.app, user).unchecked(todosApi.create, { body: todo });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}

/** The feed's calendar, with its VTIMEZONEs known to the parser. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zones = new Map<string, ICAL.Timezone>();
  for (const component of calendar.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(component);
    zones.set(zone.tzid, zone);
  }
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const start = vevent.getFirstProperty('dtstart');
    const tzid = start?.getParameter('tzid');
    const time = start?.getFirstValue() as ICAL.Time;
    if (typeof tzid === 'string') {
      const zone = zones.get(tzid);
      if (!zone) throw new Error(`No VTIMEZONE for ${tzid}`);
      time.zone = zone;
    }
    return { vevent, event: new ICAL.Event(vevent), start: time, tzid };
  });
  return { calendar, zones, events };
}

const byUid = (events: ReturnType<typeof parse>['events'], id: number) => {
  const found = events.find((e) => e.event.uid === `todo-${id}@${HOST}`);
  if (!found) throw new Error(`todo ${id} is not in the feed`);
  return found;
};

describe('Settings: the feed URL', () => {
  it('is null until made; made with the browser’s zone; regenerated; turned off', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    const none = await call(calendarApi.get);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();

    const feed = await makeFeed(user, 'Europe/Berlin');
    expect(feed).toEqual({
      path: expect.stringMatching(/^\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/) as string,
      timeZone: 'Europe/Berlin',
      createdAt: new Date(ctx.clock.now()).toISOString(),
    });
    expect((await call(calendarApi.get)).json()).toEqual(feed);
    expect((await fetchFeed(feed.path)).statusCode).toBe(200);

    // Regenerating: a new URL (in the zone of that browser); the old one stops working.
    const next = await makeFeed(user, 'America/New_York');
    expect(next.path).not.toBe(feed.path);
    expect(next.timeZone).toBe('America/New_York');
    expect((await call(calendarApi.get)).json()).toEqual(next);
    const old = await fetchFeed(feed.path);
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ error: 'Calendar feed not found', code: 'not_found' });
    expect((await fetchFeed(next.path)).statusCode).toBe(200);

    const off = await call(calendarApi.remove);
    expect(off.statusCode).toBe(204);
    expect((await call(calendarApi.get)).json()).toBeNull();
    expect((await fetchFeed(next.path)).statusCode).toBe(404);
  });

  it('takes UTC without a zone or with an unknown one', async () => {
    const user = await registerUser(ctx.app);
    expect((await makeFeed(user)).timeZone).toBe('UTC');
    expect((await makeFeed(user, 'Mars/Olympus_Mons')).timeZone).toBe('UTC');
  });
});

describe('GET /api/calendar/{secret}.ics', () => {
  it('is found by its secret only: never by a bearer token, never another feed', async () => {
    const user = await registerUser(ctx.app);
    await addTodo(user, { title: 'Mine', dueDate: '2026-03-12' });
    await makeFeed(user);
    for (const secret of ['A'.repeat(43), 'short', '']) {
      // Signed with the user's bearer token, which must not stand in for the secret.
      const response = await apiClient(ctx.app, user).unchecked(calendarApi.feed, {
        params: { secret },
      });
      expect(response.statusCode, secret).toBe(404);
      expect(response.body).not.toContain('Mine');
    }
  });

  it('lists the open todos with a due date, each field as RFC 5545 has it', async () => {
    const user = await registerUser(ctx.app);
    const group = (
      await apiClient(ctx.app, user)(groupsApi.create, {
        body: { name: 'Home, garden; shed', color: '#EF4444' },
      })
    ).json<{ id: number }>();
    const longTitle = `Call Bob, Alice; and Eve 🎉 ${'ü'.repeat(50)} ${'x'.repeat(200)}`.slice(
      0,
      200,
    );
    const allDay = await addTodo(user, {
      title: longTitle,
      description: 'Line one\nLine two, with a comma; and a semicolon \\ backslash',
      groupId: group.id,
      dueDate: '2026-03-12',
    });
    const timedWinter = await addTodo(user, {
      title: 'Dentist',
      dueDate: '2026-03-20',
      dueTime: '09:30',
    });
    const timedSummer = await addTodo(user, {
      title: 'Flight',
      dueDate: '2026-07-01',
      dueTime: '23:45',
    });
    const weekly = await addTodo(user, {
      title: 'Gym',
      dueDate: '2026-03-09',
      dueTime: '07:00',
      repeat: { every: 1, unit: 'week', weekdays: ['mon', 'thu'], from: 'due' },
    });
    const fromCompletion = await addTodo(user, {
      title: 'Water plants',
      dueDate: '2026-03-11',
      repeat: { every: 3, unit: 'day', from: 'completion' },
    });
    await addTodo(user, { title: 'No due date' });
    const done = await addTodo(user, { title: 'Done already', dueDate: '2026-03-10' });
    await apiClient(ctx.app, user)(todosApi.update, {
      params: { id: done },
      body: { title: 'Done already', completed: true },
    });
    const other = await registerUser(ctx.app);
    await addTodo(other, { title: 'Someone else’s', dueDate: '2026-03-12' });

    const feed = await makeFeed(user, 'Europe/Berlin');
    const response = await fetchFeed(feed.path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const text = response.body;

    // Lines: CRLF only, at most 75 octets each, no line split inside a UTF-8 sequence.
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) {
      expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);
    }
    expect(text).not.toContain('\ufffd');

    const { calendar, zones, events } = parse(text);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Tally//Calendar feed//EN');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(`Tally (${user.username})`);
    expect([...zones.keys()]).toEqual(['Europe/Berlin']);
    expect(events.map((e) => e.event.summary).sort()).toEqual(
      [longTitle, 'Dentist', 'Flight', 'Gym', 'Water plants'].sort(),
    );
    expect(new Set(events.map((e) => e.event.uid)).size).toBe(5);

    const first = byUid(events, allDay);
    expect(first.event.summary).toBe(longTitle);
    expect(first.event.description).toBe(
      'Line one\nLine two, with a comma; and a semicolon \\ backslash',
    );
    expect(first.vevent.getFirstProperty('categories')?.getValues()).toEqual([
      'Home, garden; shed',
    ]);
    expect(first.start.isDate).toBe(true);
    expect(first.start.toString()).toBe('2026-03-12');
    expect(text).toContain('DTSTART;VALUE=DATE:20260312\r\n');
    expect(first.vevent.getFirstPropertyValue('transp')).toBe('TRANSPARENT');
    const stamp = first.vevent.getFirstPropertyValue('dtstamp') as ICAL.Time;
    expect(stamp.zone?.tzid).toBe('UTC');
    expect(stamp.toJSDate().getTime()).toBe(ctx.clock.now() - (ctx.clock.now() % 1000));

    for (const [id, local, zone] of [
      [timedWinter, '2026-03-20T09:30:00', 'Europe/Berlin'],
      [timedSummer, '2026-07-01T23:45:00', 'Europe/Berlin'],
    ] as const) {
      const { start, tzid } = byUid(events, id);
      expect(tzid).toBe(zone);
      expect(start.isDate).toBe(false);
      expect(start.toString()).toBe(local);
      const [date, time] = local.split('T') as [string, string];
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const [hh, mm] = time.split(':').map(Number) as [number, number];
      expect(start.toUnixTime() * 1000).toBe(new TZDate(y, m - 1, d, hh, mm, zone).getTime());
    }

    const gym = byUid(events, weekly);
    expect(text).toContain('RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TH;WKST=MO\r\n');
    const recur = gym.vevent.getFirstPropertyValue('rrule') as ICAL.Recur;
    expect([recur.freq, recur.interval, recur.parts.BYDAY]).toEqual(['WEEKLY', 1, ['MO', 'TH']]);
    const iterator = gym.event.iterator();
    const dates = Array.from({ length: 4 }, () => iterator.next()?.toString());
    expect(dates).toEqual([
      '2026-03-09T07:00:00',
      '2026-03-12T07:00:00',
      '2026-03-16T07:00:00',
      '2026-03-19T07:00:00',
    ]);

    // From completion: the next occurrence only, no RRULE.
    const plants = byUid(events, fromCompletion);
    expect(plants.vevent.getFirstPropertyValue('rrule')).toBeNull();
    expect(plants.start.toString()).toBe('2026-03-11');
  });

  it('writes timed todos in UTC when the feed’s zone is UTC', async () => {
    const user = await registerUser(ctx.app);
    const id = await addTodo(user, { title: 'Call', dueDate: '2026-03-20', dueTime: '09:30' });
    const feed = await makeFeed(user);
    const text = (await fetchFeed(feed.path)).body;
    expect(text).not.toContain('VTIMEZONE');
    expect(text).toContain('DTSTART:20260320T093000Z\r\n');
    const { start } = byUid(parse(text).events, id);
    expect(start.toJSDate().toISOString()).toBe('2026-03-20T09:30:00.000Z');
  });

  it('gives RRULEs whose occurrences are the dates Tally moves the todo to', async () => {
    const user = await registerUser(ctx.app);
    const rules: [string, Repeat][] = [
      ['2026-03-10', { every: 2, unit: 'day', from: 'due' }],
      ['2026-03-11', { every: 2, unit: 'week', weekdays: ['tue', 'wed', 'sat'], from: 'due' }],
      ['2026-01-31', { every: 1, unit: 'month', from: 'due' }],
      ['2026-03-30', { every: 1, unit: 'month', from: 'due' }],
      [
        '2026-03-10',
        { every: 1, unit: 'month', nthWeekday: { n: 2, weekday: 'tue' }, from: 'due' },
      ],
      [
        '2026-01-30',
        { every: 1, unit: 'month', nthWeekday: { n: 5, weekday: 'fri' }, from: 'due' },
      ],
      [
        '2026-03-29',
        { every: 2, unit: 'month', nthWeekday: { n: -1, weekday: 'sun' }, from: 'due' },
      ],
      ['2028-02-29', { every: 1, unit: 'year', from: 'due' }],
      ['2026-08-31', { every: 3, unit: 'month', from: 'due' }],
      ['2026-01-30', { every: 1, unit: 'month', from: 'due' }],
      ['2027-01-29', { every: 1, unit: 'month', from: 'due' }],
      ['2026-12-29', { every: 2, unit: 'month', from: 'due' }],
      ['2026-01-05', { every: 1, unit: 'month', monthDay: 30, from: 'due' }],
      ['2026-04-30', { every: 1, unit: 'year', monthDay: 31, from: 'due' }],
      ['2026-03-10', { every: 1, unit: 'week', from: 'due' }],
    ];
    const ids = [];
    for (const [dueDate, repeat] of rules) {
      ids.push(await addTodo(user, { title: JSON.stringify(repeat), dueDate, repeat }));
    }
    const feed = await makeFeed(user);
    const expansions = new Map<number, string[]>();
    const { events } = parse((await fetchFeed(feed.path)).body);
    for (const id of ids) {
      const iterator = byUid(events, id).event.iterator();
      expansions.set(
        id,
        Array.from({ length: 7 }, () => iterator.next()?.toString() ?? ''),
      );
    }
    // Complete each todo six times: Tally moves it to its next occurrence each time.
    for (const id of ids) {
      const moved: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        const todos = (await apiClient(ctx.app, user)(todosApi.list)).json<
          { id: number; title: string; dueDate: string }[]
        >();
        const todo = todos.find((t) => t.id === id);
        if (!todo) throw new Error('gone');
        moved.push(todo.dueDate);
        await apiClient(ctx.app, user)(todosApi.update, {
          params: { id },
          body: { title: todo.title, completed: true },
        });
      }
      expect(
        expansions.get(id),
        rules[ids.indexOf(id)]?.[1] && JSON.stringify(rules[ids.indexOf(id)]),
      ).toEqual(moved);
    }
  });

  it('answers 304 to a current ETag or date, and changes when a todo changes', async () => {
    const user = await registerUser(ctx.app);
    const id = await addTodo(user, { title: 'Before', dueDate: '2026-03-12' });
    const feed = await makeFeed(user);
    const first = await fetchFeed(feed.path);
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(lastModified).toBe(new Date(ctx.clock.now()).toUTCString());
    expect(first.headers['cache-control']).toBe('no-store');

    ctx.clock.advance(60_000);
    const same = await fetchFeed(feed.path);
    expect(same.headers.etag).toBe(etag);
    expect(same.headers['last-modified']).toBe(lastModified);
    expect(same.body).toBe(first.body);

    for (const headers of [
      { 'if-none-match': etag },
      { 'if-none-match': `"other", W/${etag}` },
      { 'if-none-match': '*' },
      { 'if-modified-since': lastModified },
      { 'if-modified-since': new Date(ctx.clock.now()).toUTCString() },
    ]) {
      const response = await fetchFeed(feed.path, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
    }
    for (const headers of [
      { 'if-none-match': '"other"' },
      // If-None-Match wins over If-Modified-Since.
      { 'if-none-match': '"other"', 'if-modified-since': lastModified },
      { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() },
      { 'if-modified-since': 'not a date' },
    ]) {
      expect((await fetchFeed(feed.path, headers)).statusCode, JSON.stringify(headers)).toBe(200);
    }

    // A change, and a deletion, each make a new version with a later Last-Modified.
    ctx.clock.advance(60_000);
    await apiClient(ctx.app, user)(todosApi.update, {
      params: { id },
      body: { title: 'After', completed: false },
    });
    const changed = await fetchFeed(feed.path, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('SUMMARY:After');
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.headers['last-modified']).toBe(new Date(ctx.clock.now()).toUTCString());
    ctx.clock.advance(60_000);
    await apiClient(ctx.app, user)(todosApi.remove, { params: { id } });
    const deleted = await fetchFeed(feed.path, {
      'if-modified-since': changed.headers['last-modified'] as string,
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).not.toContain('VEVENT');
  });

  it('stays small whatever the dates: RDATEs from this year to two years after the due date', async () => {
    const user = await registerUser(ctx.app);
    const thirtieth: Repeat = { every: 1, unit: 'month', monthDay: 30, from: 'due' };
    const repeats = [];
    for (let i = 0; i < 20; i += 1) {
      repeats.push(
        await addTodo(user, { title: `Rent ${i}`, dueDate: '2025-01-30', repeat: thirtieth }),
      );
    }
    const far = await addTodo(user, { title: 'Far', dueDate: '9999-12-01' });
    const farRepeat = await addTodo(user, {
      title: 'Far repeat',
      dueDate: '9997-01-30',
      repeat: thirtieth,
    });
    const response = await fetchFeed((await makeFeed(user)).path);
    expect(response.statusCode).toBe(200);
    // Not one February RDATE per year up to 10009 for each repeat, as the feed once wrote.
    expect(response.body.length).toBeLessThan(20_000);
    const { events } = parse(response.body);
    const rdates = (id: number) =>
      byUid(events, id)
        .vevent.getAllProperties('rdate')
        .flatMap((property) => property.getValues().map(String));
    // The clock is in 2026: its February and the next two; 2025's is past.
    for (const id of repeats) {
      expect(rdates(id)).toEqual(['2026-02-28', '2027-02-28', '2028-02-29']);
    }
    expect(rdates(farRepeat)).toEqual(['9997-02-28', '9998-02-28', '9999-02-28']);
    expect(byUid(events, far).start.toString()).toBe('9999-12-01');
  });

  it('serves a change made by another process at once (its version is read from the data)', async () => {
    const other = await createTestApp({
      database: ctx.database,
      clock: ctx.clock,
      config: { publicUrl: `https://${HOST}` },
    });
    try {
      const user = await registerUser(ctx.app);
      const group = (
        await apiClient(ctx.app, user)(groupsApi.create, {
          body: { name: 'Home', color: '#EF4444' },
        })
      ).json<{ id: number }>();
      const id = await addTodo(user, { title: 'Before', dueDate: '2026-03-12', groupId: group.id });
      const feed = await makeFeed(user);
      const first = await fetchFeed(feed.path);
      expect(first.body).toContain('CATEGORIES:Home');
      expect((await fetchFeed(feed.path)).body).toBe(first.body);

      // A rename in the other process, in the same millisecond: a new version here.
      const renamed = await apiClient(other.app, user)(groupsApi.update, {
        params: { id: group.id },
        body: { name: 'Garden', color: '#EF4444' },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const afterRename = await fetchFeed(feed.path, { 'if-none-match': first.headers.etag });
      expect(afterRename.statusCode).toBe(200);
      expect(afterRename.body).toContain('CATEGORIES:Garden');
      expect(afterRename.headers.etag).not.toBe(first.headers.etag);

      const edited = await apiClient(other.app, user)(todosApi.update, {
        params: { id },
        body: { title: 'After', completed: false, groupId: group.id },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const afterEdit = await fetchFeed(feed.path, { 'if-none-match': afterRename.headers.etag });
      expect(afterEdit.statusCode).toBe(200);
      expect(afterEdit.body).toContain('SUMMARY:After');
      expect(afterEdit.body).not.toContain('SUMMARY:Before');
      // Served by either process, the same version and text.
      const there = await other.app.inject({ method: 'GET', url: feed.path });
      expect(there.headers.etag).toBe(afterEdit.headers.etag);
      expect(there.body).toBe(afterEdit.body);
    } finally {
      await other.close();
    }
  });

  it('is rate limited per IP, unknown secrets included', async () => {
    const limited = await createTestApp({ config: { publicUrl: `https://${HOST}` } });
    try {
      const user = await registerUser(limited.app);
      const feed = (await apiClient(limited.app, user)(calendarApi.regenerate)).json<Feed>();
      const from = (remoteAddress: string, path = feed.path) =>
        limited.app.inject({ method: 'GET', url: path, remoteAddress });
      for (let i = 0; i < 30; i += 1) expect((await from('10.0.0.1')).statusCode).toBe(200);
      for (let i = 0; i < 30; i += 1) {
        expect((await from('10.0.0.1', `/api/calendar/${'B'.repeat(43)}.ics`)).statusCode).toBe(
          404,
        );
      }
      const refused = await from('10.0.0.1');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json<{ error: string }>().error).toMatch(/^Too many attempts - try again in/);
      expect((await from('10.0.0.2')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('/api/docs', () => {
  it('describes the feed as public text/calendar', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<
        string,
        Record<string, { security?: unknown[]; responses: Record<string, { content?: object }> }>
      >;
    }>();
    const feed = document.paths['/api/calendar/{secret}.ics']?.get;
    expect(feed?.security).toEqual([]);
    expect(Object.keys(feed?.responses['200']?.content ?? {})).toEqual(['text/calendar']);
    // Its errors are JSON, as the server sends them.
    expect(Object.keys(feed?.responses['404']?.content ?? {})).toEqual(['application/json']);
  });

  it('documents the 403 a read-only API token gets on every change that takes a token', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          { security?: unknown[]; responses: Record<string, { description?: string }> }
        >
      >;
    }>();
    const changes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => method !== 'get' && method !== 'head')
        .map(([method, operation]) => ({
          call: `${method} ${path}`,
          public: operation.security?.length === 0,
          readOnly: operation.responses['403']?.description?.includes('read-only') ?? false,
        })),
    );
    const withToken = changes.filter((change) => !change.public);
    expect(withToken.length).toBeGreaterThan(40);
    // Every one of them, not only those that list a 403.
    expect(withToken.filter((change) => !change.readOnly)).toEqual([]);
    // A public call takes no token: its 403 (sign-up closed, another site) says nothing of one.
    expect(changes.filter((change) => change.public && change.readOnly)).toEqual([]);
    const created = document.paths['/api/todos']?.post?.responses['403']?.description ?? '';
    expect(created).toContain('This API token is read-only: it cannot make changes');
  });
});

describe('the task model in the feed (decision 088)', () => {
  it('writes tags in CATEGORIES after the group, PRIORITY 1/5/9 and RELATED-TO for subtasks', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    const group = (
      await call(groupsApi.create, { body: { name: 'Home', color: '#EF4444' } })
    ).json<{ id: number }>();
    const parent = await addTodo(user, {
      title: 'Move',
      dueDate: '2026-03-12',
      groupId: group.id,
      tags: ['big', 'a-b'],
      priority: 3,
    });
    await addTodo(user, {
      title: 'Van',
      dueDate: '2026-03-13',
      parentId: parent,
      priority: 1,
    });
    await addTodo(user, { title: 'Plain', dueDate: '2026-03-14', priority: 2 });
    const body = (await fetchFeed((await makeFeed(user)).path)).body;
    const events = body.split('BEGIN:VEVENT').slice(1);
    const eventOf = (title: string) => events.find((event) => event.includes(`SUMMARY:${title}`));
    expect(eventOf('Move')).toContain('CATEGORIES:Home,a-b,big');
    expect(eventOf('Move')).toContain('PRIORITY:1');
    expect(eventOf('Move')).not.toContain('RELATED-TO');
    expect(eventOf('Van')).toContain('PRIORITY:9');
    expect(eventOf('Van')).toContain(`RELATED-TO:todo-${parent}@${HOST}`);
    expect(eventOf('Plain')).toContain('PRIORITY:5');
    expect(eventOf('Plain')).not.toContain('CATEGORIES');
  });

  it('starts a todo with a start date on that day, and ends it on its due date', async () => {
    const user = await registerUser(ctx.app);
    await addTodo(user, { title: 'Trip', dueDate: '2026-03-20', startDate: '2026-03-16' });
    await addTodo(user, {
      title: 'Report',
      dueDate: '2026-03-20',
      dueTime: '17:00',
      startDate: '2026-03-18',
    });
    await addTodo(user, {
      title: 'Weekly',
      dueDate: '2026-03-20',
      startDate: '2026-03-16',
      repeat: { every: 1, unit: 'week', from: 'due' },
    });
    const body = (await fetchFeed((await makeFeed(user)).path)).body;
    const events = body.split('BEGIN:VEVENT').slice(1);
    const eventOf = (title: string) => events.find((event) => event.includes(`SUMMARY:${title}`));
    expect(eventOf('Trip')).toContain('DTSTART;VALUE=DATE:20260316\r\nDTEND;VALUE=DATE:20260321');
    // The account's zone is UTC here: UTC times.
    expect(eventOf('Report')).toContain('DTSTART:20260318T000000Z\r\nDTEND:20260320T170000Z');
    // A repeating todo's rule counts from its due date: no span.
    expect(eventOf('Weekly')).toContain('DTSTART;VALUE=DATE:20260320');
    expect(eventOf('Weekly')).not.toContain('DTEND');
  });
});
