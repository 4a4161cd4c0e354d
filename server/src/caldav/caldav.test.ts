import {
  accountApi,
  groupsApi,
  statisticsApi,
  tagsApi,
  type Todo,
  todosApi,
  trashApi,
} from '@tally/contract';
import { DOMParser, type Element } from '@xmldom/xmldom';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { davAccount, type DavAccount, davRequester, vtodoFrom } from '../test/caldav.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { createCaldavService } from './service.js';

/**
 * CalDAV at the protocol level (docs/decisions/085-caldav.md): what a calendar app sends and
 * reads, on SQLite and on PostgreSQL. The real clients' tests are in clients.test.ts.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const account = (scope: 'read' | 'read-write' = 'read-write') => davAccount(ctx.app, { scope });

const request = davRequester(() => ctx.app);

const xml = (text: string) =>
  new DOMParser().parseFromString(text, 'text/xml').documentElement as Element;

/** The <response>s of a multistatus as href → {status, props by local name}. */
function responsesOf(text: string) {
  const root = xml(text);
  const result = new Map<string, { status: string | null; props: Map<string, string> }>();
  for (const response of Array.from(root.getElementsByTagNameNS('DAV:', 'response'))) {
    const href = response.getElementsByTagNameNS('DAV:', 'href')[0]?.textContent ?? '';
    const props = new Map<string, string>();
    for (const propstat of Array.from(response.getElementsByTagNameNS('DAV:', 'propstat'))) {
      const status = propstat.getElementsByTagNameNS('DAV:', 'status')[0]?.textContent ?? '';
      if (!status.includes('200')) continue;
      const prop = propstat.getElementsByTagNameNS('DAV:', 'prop')[0];
      for (let node = prop?.firstChild; node; node = node.nextSibling) {
        if (node.nodeType === node.ELEMENT_NODE) {
          const element = node as Element;
          const inner = Array.from(element.getElementsByTagNameNS('DAV:', 'href'))
            .map((h) => h.textContent)
            .join(' ');
          props.set(element.localName ?? '', inner || (element.textContent ?? ''));
        }
      }
    }
    const direct = Array.from(response.childNodes).find(
      (node) => node.nodeType === node.ELEMENT_NODE && (node as Element).localName === 'status',
    );
    result.set(href, { status: direct?.textContent ?? null, props });
  }
  return result;
}

const vtodo = vtodoFrom('Test');

const todoOf = (data: string) => {
  const component = new ICAL.Component(ICAL.parse(data) as unknown[]);
  const todo = component.getFirstSubcomponent('vtodo');
  if (!todo) throw new Error('no VTODO');
  return todo;
};

const PROPFIND_ALL = `<?xml version="1.0"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
  <d:prop><d:displayname/><d:resourcetype/><d:getetag/><cs:getctag/><d:sync-token/>
  <c:supported-calendar-component-set/><d:current-user-principal/><c:calendar-home-set/></d:prop>
</d:propfind>`;

describe('discovery and authentication', () => {
  it('redirects /.well-known/caldav and leads from the root to the calendars', async () => {
    const user = await account();
    const wellKnown = await ctx.app.inject({ method: 'PROPFIND', url: '/.well-known/caldav' });
    expect(wellKnown.statusCode).toBe(301);
    expect(wellKnown.headers.location).toBe('/dav/');

    const root = await request(user, 'PROPFIND', '/dav/', PROPFIND_ALL, { depth: '0' });
    expect(root.statusCode).toBe(207);
    const principal = responsesOf(root.body).get('/dav/')?.props.get('current-user-principal');
    expect(principal).toBe(`/dav/principals/${user.id}/`);

    const found = await request(user, 'PROPFIND', principal ?? '', PROPFIND_ALL, { depth: '0' });
    expect(
      responsesOf(found.body)
        .get(principal ?? '')
        ?.props.get('calendar-home-set'),
    ).toBe(user.home);

    const home = await request(user, 'PROPFIND', user.home, PROPFIND_ALL, { depth: '1' });
    const listed = responsesOf(home.body);
    expect(listed.get(`${user.home}todos/`)?.props.get('displayname')).toBe('Todos');
    expect(home.body).toContain('name="VTODO"');
  });

  it("names the calendar of ungrouped todos in the account's language, and nothing else changes", async () => {
    const user = await account();
    expect((await request(user, 'PUT', `${user.home}todos/a.ics`, vtodo('a'))).statusCode).toBe(
      201,
    );
    const list = async () => {
      const home = await request(user, 'PROPFIND', user.home, PROPFIND_ALL, { depth: '1' });
      const todos = await request(user, 'PROPFIND', `${user.home}todos/`, PROPFIND_ALL, {
        depth: '1',
      });
      return {
        calendar: responsesOf(home.body).get(`${user.home}todos/`)?.props,
        object: responsesOf(todos.body).get(`${user.home}todos/a.ics`)?.props.get('getetag'),
      };
    };
    const before = await list();
    expect(before.calendar?.get('displayname')).toBe('Todos');
    await ctx.database.handle.db
      .updateTable('users')
      .set({ language: 'fr' })
      .where('id', '=', user.id)
      .execute();
    const after = await list();
    expect(after.calendar?.get('displayname')).toBe('Tâches');
    // A rename, as of a group: the ctag moves so that ctag clients read the name again; the
    // address, the sync token and every object's ETag stay, so no client fetches an object.
    expect(after.calendar?.get('getctag')).not.toBe(before.calendar?.get('getctag'));
    expect(after.calendar?.get('sync-token')).toBe(before.calendar?.get('sync-token'));
    expect(after.object).toBeDefined();
    expect(after.object).toBe(before.object);
  });

  it('takes an API token as the password, never the account password, and counts failures', async () => {
    const user = await account();
    const withPassword = await ctx.app.inject({
      method: 'PROPFIND',
      url: '/dav/',
      headers: {
        authorization: `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}`,
      },
    });
    expect(withPassword.statusCode).toBe(401);
    expect(withPassword.headers['www-authenticate']).toMatch(/^Basic realm=/);
    const none = await ctx.app.inject({ method: 'PROPFIND', url: '/dav/' });
    expect(none.statusCode).toBe(401);
    const otherName = await ctx.app.inject({
      method: 'PROPFIND',
      url: '/dav/',
      headers: {
        authorization: user.basic.replace(
          /^Basic .*/,
          'Basic ' +
            Buffer.from(
              `someone@example.com:${Buffer.from(user.basic.slice(6), 'base64').toString().split(':')[1]}`,
            ).toString('base64'),
        ),
      },
    });
    expect(otherName.statusCode).toBe(401);
  });

  it('lets a read-only token read and refuses its writes with 403', async () => {
    const user = await account('read');
    expect(
      (await request(user, 'PROPFIND', user.home, PROPFIND_ALL, { depth: '1' })).statusCode,
    ).toBe(207);
    const put = await request(user, 'PUT', `${user.home}todos/a.ics`, vtodo('a', ['SUMMARY:No']));
    expect(put.statusCode).toBe(403);
    const list = await apiClient(ctx.app, user)(todosApi.list);
    expect(list.json()).toEqual([]);
  });

  it('stays out of the OpenAPI document, which describes the JSON API', async () => {
    const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys(docs.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths.length).toBeGreaterThan(10);
    expect(
      paths.filter((p) => p.startsWith('/dav') || p.startsWith('/.well-known') || p === '/'),
    ).toEqual([]);
  });

  it("answers 404 for another user's tree", async () => {
    const first = await account();
    const second = await account();
    const other = await request(second, 'PROPFIND', first.home, PROPFIND_ALL, { depth: '1' });
    expect(other.statusCode).toBe(404);
    const get = await request(second, 'GET', `${first.home}todos/x.ics`);
    expect(get.statusCode).toBe(404);
  });
});

describe('resources', () => {
  it('creates, reads and updates a todo with every mapped property', async () => {
    const user = await account();
    const href = `${user.home}todos/full-1.ics`;
    const put = await request(
      user,
      'PUT',
      href,
      vtodo('full-1', [
        'SUMMARY:Pay rent',
        'DESCRIPTION:Line one\\nline two',
        'DUE;TZID=Europe/Berlin:20260315T090000',
        'DTSTART;TZID=Europe/Berlin:20260312T000000',
        'RRULE:FREQ=MONTHLY;BYMONTHDAY=15',
        'PRIORITY:1',
        'CATEGORIES:home,money',
        'X-APPLE-SORT-ORDER:42',
        'GEO:48.1;11.5',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'TRIGGER;RELATED=END:-PT30M',
        'X-WR-ALARMUID:abc',
        'END:VALARM',
      ]),
      { 'if-none-match': '*' },
    );
    expect(put.statusCode, put.body).toBe(201);
    const [todo] = (await apiClient(ctx.app, user)(todosApi.list)).json<
      Record<string, unknown>[]
    >();
    expect(todo).toMatchObject({
      title: 'Pay rent',
      description: 'Line one\nline two',
      dueDate: '2026-03-15',
      dueTime: '09:00',
      startDate: '2026-03-12',
      repeat: { every: 1, unit: 'month', monthDay: 15, from: 'due' },
      priority: 3,
      tags: ['home', 'money'],
      remindMinutesBefore: 30,
      reminders: [30],
      completed: false,
    });

    const get = await request(user, 'GET', href);
    expect(get.statusCode).toBe(200);
    expect(get.headers.etag).toMatch(/^"[^"]+"$/);
    const read = todoOf(get.body);
    expect(read.getFirstPropertyValue('uid')).toBe('full-1');
    expect(read.getFirstPropertyValue('x-apple-sort-order')).toBe('42');
    expect(read.getFirstProperty('due')?.getParameter('tzid')).toBe('Europe/Berlin');
    expect(read.getFirstSubcomponent('valarm')?.getFirstPropertyValue('x-wr-alarmuid')).toBe('abc');
    expect(get.body).toContain('BEGIN:VTIMEZONE');

    // The web app changes the title: the client sees it, with its own properties kept.
    await apiClient(ctx.app, user).unchecked(todosApi.patch, {
      params: { id: String(todo?.id) },
      body: { title: 'Pay the rent', priority: 1 },
    });
    const again = await request(user, 'GET', href);
    expect(again.headers.etag).not.toBe(get.headers.etag);
    const changed = todoOf(again.body);
    expect(changed.getFirstPropertyValue('summary')).toBe('Pay the rent');
    expect(changed.getFirstPropertyValue('priority')).toBe(9);
    expect(changed.getFirstPropertyValue('geo')).toBeTruthy();
  });

  it('reads each VALARM before DUE as a reminder and writes one VALARM per reminder', async () => {
    const user = await account();
    const href = `${user.home}todos/alarms-1.ics`;
    const alarm = (trigger: string, description: string) => [
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      `DESCRIPTION:${description}`,
      trigger,
      'END:VALARM',
    ];
    const put = await request(
      user,
      'PUT',
      href,
      vtodo('alarms-1', [
        'SUMMARY:Flight',
        'DUE:20260320T170000Z',
        ...alarm('TRIGGER;RELATED=END:-P1D', 'A day before'),
        ...alarm('TRIGGER;RELATED=END:PT0S', 'Now'),
        // Absolute: not a reminder Tally can show, kept as sent.
        ...alarm('TRIGGER;VALUE=DATE-TIME:20260320T120000Z', 'Absolute'),
      ]),
      { 'if-none-match': '*' },
    );
    expect(put.statusCode, put.body).toBe(201);
    const api = apiClient(ctx.app, user);
    const [todo] = (await api(todosApi.list)).json<Todo[]>();
    expect(todo).toMatchObject({ reminders: [1440, 0], remindMinutesBefore: 1440 });

    const triggers = (body: string) =>
      todoOf(body)
        .getAllSubcomponents('valarm')
        .map((a) => a.getFirstProperty('trigger')?.toICALString());
    const get = await request(user, 'GET', href);
    expect(triggers(get.body)).toEqual([
      'TRIGGER;RELATED=END:-P1D',
      'TRIGGER;RELATED=END:PT0S',
      'TRIGGER;VALUE=DATE-TIME:20260320T120000Z',
    ]);

    // The web app adds an hour before and drops the day before: the client reads the change.
    await api(todosApi.patch, { params: { id: Number(todo?.id) }, body: { reminders: [60, 0] } });
    const again = await request(user, 'GET', href);
    expect(triggers(again.body)).toEqual([
      'TRIGGER;RELATED=END:-PT60M',
      'TRIGGER;RELATED=END:PT0S',
      'TRIGGER;VALUE=DATE-TIME:20260320T120000Z',
    ]);
    // …and a PUT of what it read leaves the reminders as they are.
    const back = await request(user, 'PUT', href, again.body, {
      'if-match': String(again.headers.etag),
    });
    expect(back.statusCode, back.body).toBe(204);
    const [after] = (await api(todosApi.list)).json<Todo[]>();
    expect(after?.reminders).toEqual([60, 0]);
  });

  it('reads completion from STATUS, COMPLETED or PERCENT-COMPLETE and keeps progress as written', async () => {
    const user = await account();
    const put = (uid: string, lines: string[]) =>
      request(
        user,
        'PUT',
        `${user.home}todos/${uid}.ics`,
        vtodo(uid, ['SUMMARY:' + uid, ...lines]),
      );
    await put('percent', ['PERCENT-COMPLETE:100']);
    await put('completed', ['COMPLETED:20260309T100000Z']);
    await put('progress', ['STATUS:IN-PROCESS', 'PERCENT-COMPLETE:40']);
    const todos = (await apiClient(ctx.app, user)(todosApi.list)).json<
      { id: number; title: string; completed: boolean }[]
    >();
    expect(Object.fromEntries(todos.map((t) => [t.title, t.completed]))).toEqual({
      percent: true,
      completed: true,
      progress: false,
    });
    const progress = todoOf((await request(user, 'GET', `${user.home}todos/progress.ics`)).body);
    expect(progress.getFirstPropertyValue('status')).toBe('IN-PROCESS');
    expect(progress.getFirstPropertyValue('percent-complete')).toBe(40);
    // Completed in the web app: the VTODO says so in full.
    const progressTodo = todos.find((t) => t.title === 'progress');
    await apiClient(ctx.app, user).unchecked(todosApi.patch, {
      params: { id: String(progressTodo?.id) },
      body: { completed: true },
    });
    const done = todoOf((await request(user, 'GET', `${user.home}todos/progress.ics`)).body);
    expect(done.getFirstPropertyValue('status')).toBe('COMPLETED');
    expect(done.getFirstPropertyValue('percent-complete')).toBe(100);
    expect(done.getFirstPropertyValue('completed')).toBeTruthy();
  });

  it("maps Tally's repeat rules both ways", async () => {
    const user = await account();
    const cases: [string, string, unknown][] = [
      [
        'RRULE:FREQ=MONTHLY;BYDAY=2TU',
        '20260310',
        { every: 1, unit: 'month', nthWeekday: { n: 2, weekday: 'tue' }, from: 'due' },
      ],
      [
        'RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1',
        '20260331',
        { every: 3, unit: 'month', monthDay: 31, from: 'due' },
      ],
      [
        'RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=10',
        '20260310',
        { every: 1, unit: 'year', monthDay: 10, from: 'due' },
      ],
      [
        'RRULE:FREQ=WEEKLY;BYDAY=FR,MO',
        '20260313',
        { every: 1, unit: 'week', weekdays: ['mon', 'fri'], from: 'due' },
      ],
    ];
    for (const [index, [rrule, due, repeat]] of cases.entries()) {
      await request(
        user,
        'PUT',
        `${user.home}todos/r${index}.ics`,
        vtodo(`r${index}`, [`SUMMARY:R${index}`, `DUE;VALUE=DATE:${due}`, rrule]),
      );
      const todos = (await apiClient(ctx.app, user)(todosApi.list)).json<
        { title: string; repeat: unknown }[]
      >();
      expect(todos.find((t) => t.title === `R${index}`)?.repeat).toEqual(repeat);
      // Unchanged in Tally, the rule goes back exactly as the app wrote it.
      const read = todoOf((await request(user, 'GET', `${user.home}todos/r${index}.ics`)).body);
      expect(read.getFirstProperty('rrule')?.toICALString()).toBe(rrule);
    }
    // A rule counted from completion (made in the web app) comes back as one.
    const made = await apiClient(ctx.app, user)(todosApi.create, {
      body: {
        title: 'After done',
        dueDate: '2026-03-12',
        repeat: { every: 2, unit: 'day', from: 'completion' },
      },
    });
    const href = `${user.home}todos/tally-${made.json<{ id: number }>().id}.ics`;
    const body = (await request(user, 'GET', href)).body;
    expect(body).toContain('RRULE;X-TALLY-FROM=COMPLETION:FREQ=DAILY;INTERVAL=2');
    expect((await request(user, 'PUT', href, body)).statusCode).toBe(204);
    const head = await ctx.app.inject({
      method: 'HEAD',
      url: href,
      headers: { authorization: user.basic },
    });
    expect(head.statusCode).toBe(200);
    const cached = await request(user, 'GET', href, undefined, {
      'if-none-match': head.headers.etag as string,
    });
    expect(cached.statusCode).toBe(304);
    const todos = (await apiClient(ctx.app, user)(todosApi.list)).json<
      { title: string; repeat: unknown }[]
    >();
    expect(todos.find((t) => t.title === 'After done')?.repeat).toEqual({
      every: 2,
      unit: 'day',
      from: 'completion',
    });
  });

  it('refuses a stale write with 412 and takes it with the current ETag', async () => {
    const user = await account();
    const href = `${user.home}todos/conflict.ics`;
    await request(user, 'PUT', href, vtodo('conflict', ['SUMMARY:One']));
    const first = await request(user, 'GET', href);
    await request(user, 'PUT', href, vtodo('conflict', ['SUMMARY:Two']), {
      'if-match': first.headers.etag as string,
    });
    const stale = await request(user, 'PUT', href, vtodo('conflict', ['SUMMARY:Three']), {
      'if-match': first.headers.etag as string,
    });
    expect(stale.statusCode).toBe(412);
    const exists = await request(user, 'PUT', href, vtodo('conflict', ['SUMMARY:Four']), {
      'if-none-match': '*',
    });
    expect(exists.statusCode).toBe(412);
    const current = await request(user, 'GET', href);
    expect(todoOf(current.body).getFirstPropertyValue('summary')).toBe('Two');
    const fresh = await request(user, 'PUT', href, vtodo('conflict', ['SUMMARY:Three']), {
      'if-match': current.headers.etag as string,
    });
    expect(fresh.statusCode).toBe(204);
    const staleDelete = await request(user, 'DELETE', href, undefined, {
      'if-match': current.headers.etag as string,
    });
    expect(staleDelete.statusCode).toBe(412);
  });

  it('keeps a repeating todo an app completed completed; NEEDS-ACTION reopens it; the web app moves it on', async () => {
    const user = await account();
    const api = apiClient(ctx.app, user);
    const href = `${user.home}todos/weekly.ics`;
    const weekly = (status: string[]) =>
      vtodo('weekly', ['SUMMARY:Bins', 'DUE;VALUE=DATE:20260310', 'RRULE:FREQ=WEEKLY', ...status]);
    await request(user, 'PUT', href, weekly([]));
    await request(user, 'PUT', href, weekly(['STATUS:COMPLETED', 'COMPLETED:20260310T100000Z']));
    const done = todoOf((await request(user, 'GET', href)).body);
    expect(done.getFirstPropertyValue('status')).toBe('COMPLETED');
    expect(String(done.getFirstPropertyValue('due'))).toBe('2026-03-10');
    const completed = () =>
      api(statisticsApi.total).then((r) => r.json<{ todosCompleted: number }>().todosCompleted);
    expect(await completed()).toBe(1);

    await request(user, 'PUT', href, weekly(['STATUS:NEEDS-ACTION']));
    const [reopened] = (await api(todosApi.list)).json<{ id: number; completed: boolean }[]>();
    expect(reopened).toMatchObject({ completed: false, dueDate: '2026-03-10' });
    expect(await completed()).toBe(0);

    // The web app's tick completes the occurrence: the todo moves on, still open.
    await api(todosApi.patch, { params: { id: reopened?.id ?? 0 }, body: { completed: true } });
    const next = todoOf((await request(user, 'GET', href)).body);
    expect(next.getFirstPropertyValue('status')).toBe('NEEDS-ACTION');
    expect(String(next.getFirstPropertyValue('due'))).toBe('2026-03-17');
    expect(await completed()).toBe(1);
  });

  it('keeps a rule Tally cannot represent verbatim, and unknown properties across round trips', async () => {
    const user = await account();
    const href = `${user.home}todos/custom.ics`;
    let body = vtodo('custom', [
      'SUMMARY:Custom',
      'DUE;VALUE=DATE:20260310',
      'RRULE:FREQ=WEEKLY;COUNT=5',
      'X-TASKS-ORG-FOO;X-P=1:keep me',
      'ATTACH;FMTTYPE=text/plain:https://example.com/a.txt',
      'CATEGORIES:Two words',
      'CATEGORIES:zeta,alpha',
    ]);
    for (let round = 0; round < 3; round += 1) {
      expect((await request(user, 'PUT', href, body)).statusCode).toBeLessThan(300);
      body = (await request(user, 'GET', href)).body;
    }
    const read = todoOf(body);
    expect(read.getFirstProperty('rrule')?.toICALString()).toBe('RRULE:FREQ=WEEKLY;COUNT=5');
    expect(read.getFirstProperty('x-tasks-org-foo')?.toICALString()).toBe(
      'X-TASKS-ORG-FOO;X-P=1:keep me',
    );
    expect(read.getFirstPropertyValue('attach')).toBe('https://example.com/a.txt');
    expect(read.getAllProperties('categories').map((p) => p.toICALString())).toEqual([
      'CATEGORIES:Two words',
      'CATEGORIES:zeta,alpha',
    ]);
    const [todo] = (await apiClient(ctx.app, user)(todosApi.list)).json<
      { repeat: unknown; customRepeat?: string; tags: string[] }[]
    >();
    expect(todo?.repeat).toBeNull();
    expect(todo?.customRepeat).toBe('FREQ=WEEKLY;COUNT=5');
    expect(todo?.tags).toEqual(['alpha', 'Two-words', 'zeta']);
  });

  it('links subtasks by RELATED-TO, whichever arrives first', async () => {
    const user = await account();
    await request(
      user,
      'PUT',
      `${user.home}todos/child.ics`,
      vtodo('child', ['SUMMARY:Child', 'RELATED-TO;RELTYPE=PARENT:parent']),
    );
    await request(user, 'PUT', `${user.home}todos/parent.ics`, vtodo('parent', ['SUMMARY:Parent']));
    const todos = (await apiClient(ctx.app, user)(todosApi.list)).json<
      { id: number; title: string; parentId: number | null }[]
    >();
    const parent = todos.find((t) => t.title === 'Parent');
    expect(todos.find((t) => t.title === 'Child')?.parentId).toBe(parent?.id);
    const read = todoOf((await request(user, 'GET', `${user.home}todos/child.ics`)).body);
    expect(read.getFirstPropertyValue('related-to')).toBe('parent');
  });

  it('refuses what is not iCalendar with 400, a VEVENT with 403, and writes nothing', async () => {
    const user = await account();
    const bad = await request(user, 'PUT', `${user.home}todos/bad.ics`, 'not a calendar');
    expect(bad.statusCode).toBe(400);
    const event = await request(
      user,
      'PUT',
      `${user.home}todos/ev.ics`,
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
    // supported-calendar-component: a DAV precondition (protocol.test.ts reads its body).
    expect(event.statusCode).toBe(403);
    const list = await apiClient(ctx.app, user)(todosApi.list);
    expect(list.json()).toEqual([]);
  });
});

describe('reports', () => {
  it('answers calendar-query with the completed filter and a time range', async () => {
    const user = await account();
    await request(
      user,
      'PUT',
      `${user.home}todos/open.ics`,
      vtodo('open', ['SUMMARY:Open', 'DUE;VALUE=DATE:20260320']),
    );
    await request(
      user,
      'PUT',
      `${user.home}todos/done.ics`,
      vtodo('done', ['SUMMARY:Done', 'STATUS:COMPLETED', 'COMPLETED:20260309T100000Z']),
    );
    await request(
      user,
      'PUT',
      `${user.home}todos/later.ics`,
      vtodo('later', ['SUMMARY:Later', 'DUE;VALUE=DATE:20270101']),
    );
    const query = (filter: string) => `<?xml version="1.0"?>
<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:prop><D:getetag/></D:prop>
  <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO">${filter}</C:comp-filter></C:comp-filter></C:filter>
</C:calendar-query>`;
    const open = await request(
      user,
      'REPORT',
      `${user.home}todos/`,
      query('<C:prop-filter name="COMPLETED"><C:is-not-defined/></C:prop-filter>'),
      { depth: '1' },
    );
    expect([...responsesOf(open.body).keys()].sort()).toEqual([
      `${user.home}todos/later.ics`,
      `${user.home}todos/open.ics`,
    ]);
    const ranged = await request(
      user,
      'REPORT',
      `${user.home}todos/`,
      query('<C:time-range start="20260301T000000Z" end="20260401T000000Z"/>'),
      { depth: '1' },
    );
    expect([...responsesOf(ranged.body).keys()]).toEqual(
      expect.arrayContaining([`${user.home}todos/open.ics`]),
    );
    expect([...responsesOf(ranged.body).keys()]).not.toContain(`${user.home}todos/later.ics`);
  });

  it('reads namespaces by URI, whatever the prefix, default namespace included', async () => {
    const user = await account();
    await request(user, 'PUT', `${user.home}todos/ns.ics`, vtodo('ns', ['SUMMARY:Namespaced']));
    const body = `<multiget:calendar-multiget xmlns:multiget="urn:ietf:params:xml:ns:caldav" xmlns="DAV:">
  <prop><getetag/><multiget:calendar-data/><unknown-prop xmlns="http://example.com/x"/></prop>
  <href>${user.home}todos/ns.ics</href>
  <href>${user.home}todos/missing.ics</href>
</multiget:calendar-multiget>`;
    const answer = await request(user, 'REPORT', `${user.home}todos/`, body, { depth: '1' });
    expect(answer.statusCode).toBe(207);
    const responses = responsesOf(answer.body);
    expect(responses.get(`${user.home}todos/ns.ics`)?.props.get('calendar-data')).toContain(
      'SUMMARY:Namespaced',
    );
    expect(responses.get(`${user.home}todos/missing.ics`)?.status).toContain('404');
    expect(answer.body).toContain('http://example.com/x');
    const wrong = await request(
      user,
      'REPORT',
      `${user.home}todos/`,
      '<calendar-multiget xmlns="DAV:"><href>x</href></calendar-multiget>',
    );
    expect(wrong.statusCode).toBe(403);
    const broken = await request(user, 'REPORT', `${user.home}todos/`, '<d:prop xmlns:d="DAV:">');
    expect(broken.statusCode).toBe(400);
  });

  it('answers a multiget naming objects outside the calendar with a 404 for each, pages of them too', async () => {
    const user = await account();
    const other = await account();
    await request(user, 'PUT', `${user.home}todos/in.ics`, vtodo('in', ['SUMMARY:Inside']));
    const outside = [
      ...Array.from({ length: 150 }, (_, i) => `${other.home}todos/b${i}.ics`),
      `${user.home}elsewhere/a.ics`,
      '/dav/x.ics',
    ];
    const hrefs = [...outside, `${user.home}todos/in.ics`];
    const answer = await request(
      user,
      'REPORT',
      `${user.home}todos/`,
      `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>${hrefs.map((h) => `<d:href>${h}</d:href>`).join('')}</c:calendar-multiget>`,
    );
    expect(answer.statusCode).toBe(207);
    const responses = responsesOf(answer.body);
    expect([...responses.keys()]).toEqual(hrefs);
    expect(outside.every((href) => responses.get(href)?.status?.includes('404'))).toBe(true);
    expect(responses.get(`${user.home}todos/in.ics`)?.props.get('calendar-data')).toContain(
      'SUMMARY:Inside',
    );
  });

  it('answers allprop, propname, and the properties it lacks in a 404 propstat', async () => {
    const user = await account();
    const href = `${user.home}todos/p.ics`;
    await request(user, 'PUT', href, vtodo('p', ['SUMMARY:Props']));
    const propfind = (body: string) => request(user, 'PROPFIND', href, body, { depth: '0' });
    const propstats = (text: string) =>
      Array.from(xml(text).getElementsByTagNameNS('DAV:', 'propstat')).map((propstat) => ({
        status: propstat.getElementsByTagNameNS('DAV:', 'status')[0]?.textContent,
        props: Array.from(propstat.getElementsByTagNameNS('DAV:', 'prop')[0]?.childNodes ?? [])
          .filter((node) => node.nodeType === node.ELEMENT_NODE)
          .map((node) => [(node as Element).localName, node.textContent]),
      }));
    const names = [
      'getetag',
      'getcontenttype',
      'resourcetype',
      'getcontentlength',
      'getlastmodified',
    ];

    const all = propstats(
      (await propfind('<d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>')).body,
    );
    expect(all).toHaveLength(1);
    expect(all[0]?.status).toBe('HTTP/1.1 200 OK');
    expect(all[0]?.props.map(([name]) => name)).toEqual(names);
    expect(all[0]?.props[0]?.[1]).toMatch(/^".+"$/);

    const named = propstats(
      (await propfind('<d:propfind xmlns:d="DAV:"><d:propname/></d:propfind>')).body,
    );
    expect(named[0]?.props).toEqual(names.map((name) => [name, '']));

    const mixed = propstats(
      (
        await propfind(
          '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><x:color xmlns:x="urn:example"/><d:displayname/></d:prop></d:propfind>',
        )
      ).body,
    );
    expect(mixed.map((propstat) => propstat.status)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 404 Not Found',
    ]);
    expect(mixed[0]?.props.map(([name]) => name)).toEqual(['getetag']);
    expect(mixed[1]?.props).toEqual([
      ['color', ''],
      ['displayname', ''],
    ]);
  });

  it('answers a multiget of 600 todos', async () => {
    const user = await account();
    const hrefs: string[] = [];
    for (let i = 0; i < 600; i += 1) {
      await apiClient(ctx.app, user)(todosApi.create, { body: { title: `Todo ${i}` } });
    }
    const listing = await request(user, 'PROPFIND', `${user.home}todos/`, PROPFIND_ALL, {
      depth: '1',
    });
    for (const href of responsesOf(listing.body).keys())
      if (href.endsWith('.ics')) hrefs.push(href);
    expect(hrefs).toHaveLength(600);
    const body = `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>${hrefs.map((h) => `<d:href>${h}</d:href>`).join('')}</c:calendar-multiget>`;
    const answer = await request(user, 'REPORT', `${user.home}todos/`, body);
    const responses = responsesOf(answer.body);
    expect(responses.size).toBe(600);
    expect(
      [...responses.values()].every((r) => r.props.get('calendar-data')?.includes('BEGIN:VTODO')),
    ).toBe(true);
  });

  it('returns only what changed since a sync token, deletions and moves included', async () => {
    const user = await account();
    const collection = `${user.home}todos/`;
    const sync = (token: string) =>
      request(
        user,
        'REPORT',
        collection,
        `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
      );
    await request(user, 'PUT', `${collection}a.ics`, vtodo('a', ['SUMMARY:A']));
    await request(user, 'PUT', `${collection}b.ics`, vtodo('b', ['SUMMARY:B']));
    const first = await sync('');
    expect(responsesOf(first.body).size).toBe(2);
    const token =
      xml(first.body).getElementsByTagNameNS('DAV:', 'sync-token')[0]?.textContent ?? '';
    expect(token).toMatch(/^urn:tally:sync:\d+$/);

    const unchanged = await sync(token);
    expect(responsesOf(unchanged.body).size).toBe(0);

    const todos = (await apiClient(ctx.app, user)(todosApi.list)).json<
      { id: number; title: string }[]
    >();
    const a = todos.find((t) => t.title === 'A');
    await apiClient(ctx.app, user).unchecked(todosApi.remove, { params: { id: String(a?.id) } });
    await request(user, 'PUT', `${collection}c.ics`, vtodo('c', ['SUMMARY:C']));
    const next = await sync(token);
    const changes = responsesOf(next.body);
    expect(changes.get(`${collection}a.ics`)?.status).toContain('404');
    expect(changes.get(`${collection}c.ics`)?.props.get('getetag')).toMatch(/^"/);
    expect(changes.has(`${collection}b.ics`)).toBe(false);

    const bogus = await sync('urn:tally:sync:999999999');
    expect(bogus.statusCode).toBe(403);
    expect(bogus.body).toContain('valid-sync-token');
  });

  it('forgets changes after 30 days: an older token is 403 valid-sync-token, and a sync afresh works', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const sync = (user: DavAccount, token: string) =>
      request(
        user,
        'REPORT',
        `${user.home}todos/`,
        `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
      );
    const tokenOf = (body: string) =>
      xml(body).getElementsByTagNameNS('DAV:', 'sync-token')[0]?.textContent ?? '';
    const ctagOf = async (user: DavAccount) =>
      responsesOf(
        (await request(user, 'PROPFIND', `${user.home}todos/`, PROPFIND_ALL, { depth: '0' })).body,
      )
        .get(`${user.home}todos/`)
        ?.props.get('getctag');
    const changes = createCaldavService(ctx.database.handle.db, ctx.clock.now);

    // One user keeps changing todos; the other changes nothing after its first sync.
    const busy = await account();
    const idle = await account();
    for (const user of [idle, busy]) {
      await request(user, 'PUT', `${user.home}todos/a.ics`, vtodo('a', ['SUMMARY:A']));
      await request(user, 'PUT', `${user.home}todos/b.ics`, vtodo('b', ['SUMMARY:B']));
    }
    const idleOld = tokenOf((await sync(idle, '')).body);
    const busyOld = tokenOf((await sync(busy, '')).body);
    await request(busy, 'PUT', `${busy.home}todos/b.ics`, vtodo('b', ['SUMMARY:B2']));
    const idleCtag = await ctagOf(idle);
    // Nothing is old enough yet: the first run only marks where the log stands.
    expect(await changes.pruneChanges()).toBe(0);
    expect((await sync(busy, busyOld)).statusCode).toBe(207);

    ctx.clock.advance(DAY);
    await request(busy, 'PUT', `${busy.home}todos/c.ics`, vtodo('c', ['SUMMARY:C']));
    const busyRecent = tokenOf((await sync(busy, busyOld)).body);
    ctx.clock.advance(30 * DAY);
    expect(await changes.pruneChanges()).toBeGreaterThanOrEqual(3);

    for (const [user, token] of [
      [busy, busyOld],
      [idle, idleOld],
    ] as const) {
      const expired = await sync(user, token);
      expect(expired.statusCode).toBe(403);
      expect(xml(expired.body).getElementsByTagNameNS('DAV:', 'valid-sync-token')).toHaveLength(1);
    }
    // A token from within the kept history still answers only what changed after it.
    const recent = await sync(busy, busyRecent);
    expect(recent.statusCode).toBe(207);
    expect(responsesOf(recent.body).size).toBe(0);

    // Afresh: every todo, and a token the next incremental sync accepts (also for the user
    // whose own latest change is older than the kept history).
    for (const [user, count] of [
      [busy, 3],
      [idle, 2],
    ] as const) {
      const fresh = await sync(user, '');
      expect([...responsesOf(fresh.body).keys()].filter((h) => h.endsWith('.ics'))).toHaveLength(
        count,
      );
      const next = await sync(user, tokenOf(fresh.body));
      expect(next.statusCode).toBe(207);
      expect(responsesOf(next.body).size).toBe(0);
    }
    // A calendar's getctag outlives the pruning, so a client does not fetch it again for nothing.
    expect(await ctagOf(idle)).toBe(idleCtag);
    await request(idle, 'PUT', `${idle.home}todos/d.ics`, vtodo('d', ['SUMMARY:D']));
    expect(await ctagOf(idle)).not.toBe(idleCtag);
  });
});

describe('calendars are groups', () => {
  it('makes, renames, recolours and deletes a group, its todos going to the trash', async () => {
    const user = await account();
    const made = await request(
      user,
      'MKCALENDAR',
      `${user.home}shopping-uuid/`,
      `<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:ic="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Shopping</d:displayname><ic:calendar-color>#EF4444FF</ic:calendar-color></d:prop></d:set></c:mkcalendar>`,
    );
    expect(made.statusCode, made.body).toBe(201);
    let groups = (await apiClient(ctx.app, user)(groupsApi.list)).json<
      { id: number; name: string; color: string }[]
    >();
    expect(groups).toMatchObject([{ name: 'Shopping', color: '#EF4444' }]);

    const patched = await request(
      user,
      'PROPPATCH',
      `${user.home}shopping-uuid/`,
      `<d:propertyupdate xmlns:d="DAV:" xmlns:ic="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Groceries</d:displayname><ic:calendar-color>#10B981</ic:calendar-color></d:prop></d:set></d:propertyupdate>`,
    );
    expect(patched.statusCode).toBe(207);
    groups = (await apiClient(ctx.app, user)(groupsApi.list)).json();
    expect(groups).toMatchObject([{ name: 'Groceries', color: '#10B981' }]);

    await request(
      user,
      'PUT',
      `${user.home}shopping-uuid/milk.ics`,
      vtodo('milk', ['SUMMARY:Milk']),
    );
    const [todo] = (await apiClient(ctx.app, user)(todosApi.list)).json<{ groupId: number }[]>();
    expect(todo?.groupId).toBe(groups[0]?.id);

    const removed = await request(user, 'DELETE', `${user.home}shopping-uuid/`);
    expect(removed.statusCode).toBe(204);
    expect((await apiClient(ctx.app, user)(groupsApi.list)).json()).toEqual([]);
    expect((await apiClient(ctx.app, user)(todosApi.list)).json()).toEqual([]);
    const trash = await apiClient(ctx.app, user)(trashApi.list);
    expect(JSON.stringify(trash.json())).toContain('Milk');
  });

  it('makes a calendar with presentation properties it does not keep, never one without VTODOs', async () => {
    const user = await account();
    const apple = await request(
      user,
      'MKCALENDAR',
      `${user.home}ABC-123/`,
      `<B:mkcalendar xmlns:B="urn:ietf:params:xml:ns:caldav"><A:set xmlns:A="DAV:"><A:prop><A:displayname>Errands</A:displayname><D:calendar-order xmlns:D="http://apple.com/ns/ical/">3</D:calendar-order><B:supported-calendar-component-set><B:comp name="VTODO"/></B:supported-calendar-component-set></A:prop></A:set></B:mkcalendar>`,
    );
    expect(apple.statusCode).toBe(201);
    const events = await request(
      user,
      'MKCALENDAR',
      `${user.home}events/`,
      `<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>`,
    );
    expect(events.statusCode).toBe(403);
    expect(events.body).toContain('supported-calendar-component');
    const again = await request(user, 'MKCALENDAR', `${user.home}ABC-123/`);
    expect(again.statusCode).toBe(405);
    const groups = (await apiClient(ctx.app, user)(groupsApi.list)).json<{ name: string }[]>();
    expect(groups.map((g) => g.name)).toEqual(['Errands']);
    const order = await request(
      user,
      'PROPPATCH',
      `${user.home}ABC-123/`,
      `<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Chores</d:displayname><x:calendar-order xmlns:x="http://apple.com/ns/ical/">1</x:calendar-order></d:prop></d:set></d:propertyupdate>`,
    );
    expect(order.body).toContain('403 Forbidden');
    expect(order.body).toContain('424 Failed Dependency');
    const unchanged = (await apiClient(ctx.app, user)(groupsApi.list)).json<{ name: string }[]>();
    expect(unchanged.map((g) => g.name)).toEqual(['Errands']);
  });

  it('lists a group made in the web app as a calendar with its colour', async () => {
    const user = await account();
    const group = await apiClient(ctx.app, user)(groupsApi.create, {
      body: { name: 'Work', color: '#8B5CF6' },
    });
    const id = group.json<{ id: number }>().id;
    const home = await request(
      user,
      'PROPFIND',
      user.home,
      `<d:propfind xmlns:d="DAV:"><d:prop><d:displayname/><x:calendar-color xmlns:x="http://apple.com/ns/ical/"/></d:prop></d:propfind>`,
      { depth: '1' },
    );
    const work = responsesOf(home.body).get(`${user.home}group-${id}/`);
    expect(work?.props.get('displayname')).toBe('Work');
    expect(work?.props.get('calendar-color')).toBe('#8B5CF6FF');
  });
});

describe('changes from anywhere reach a syncing client', () => {
  const syncBody = (token: string) =>
    `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
  const tokenOf = (body: string) =>
    xml(body).getElementsByTagNameNS('DAV:', 'sync-token')[0]?.textContent ?? '';

  it('reports a tag renamed and a todo restored from the trash', async () => {
    const user = await account();
    const collection = `${user.home}todos/`;
    const created = await apiClient(ctx.app, user)(todosApi.create, {
      body: { title: 'Tagged', tags: ['old'] },
    });
    const { id } = created.json<{ id: number }>();
    const start = tokenOf((await request(user, 'REPORT', collection, syncBody(''))).body);

    await apiClient(ctx.app, user)(tagsApi.update, {
      params: { name: 'old' },
      body: { name: 'new' },
    });
    const renamed = await request(user, 'REPORT', collection, syncBody(start));
    const href = `${collection}tally-${id}.ics`;
    expect([...responsesOf(renamed.body).keys()]).toEqual([href]);
    const read = todoOf((await request(user, 'GET', href)).body);
    expect(read.getFirstPropertyValue('categories')).toBe('new');

    const afterRename = tokenOf(renamed.body);
    await apiClient(ctx.app, user)(todosApi.remove, { params: { id } });
    const deleted = await request(user, 'REPORT', collection, syncBody(afterRename));
    expect(responsesOf(deleted.body).get(href)?.status).toContain('404');
    await apiClient(ctx.app, user)(trashApi.restore, { params: { id } });
    const restored = await request(user, 'REPORT', collection, syncBody(tokenOf(deleted.body)));
    expect(responsesOf(restored.body).get(href)?.props.get('getetag')).toMatch(/^"/);
  });

  it('publishes a client change to the open web apps and counts it in statistics', async () => {
    const user = await account();
    const events: unknown[] = [];
    const unsubscribe = await ctx.app.live.subscribe(user.id, {
      event: (event) => events.push(event),
      lost: () => undefined,
      accessChanged: () => undefined,
    });
    await request(user, 'PUT', `${user.home}todos/live.ics`, vtodo('live', ['SUMMARY:Live']));
    await request(
      user,
      'PUT',
      `${user.home}todos/live.ics`,
      vtodo('live', ['SUMMARY:Live', 'STATUS:COMPLETED']),
    );
    await request(user, 'DELETE', `${user.home}todos/live.ics`);
    // The events go out once each change is committed: wait for the third.
    await vi.waitFor(() => expect(events).toHaveLength(3));
    unsubscribe();
    expect(events.map((event) => (event as { type: string }).type)).toEqual([
      'todo.created',
      'todo.updated',
      'todo.deleted',
    ]);
    const stats = (await apiClient(ctx.app, user)(statisticsApi.total)).json<
      Record<string, number>
    >();
    expect(stats).toMatchObject({
      todosCreated: 1,
      todosCompleted: 1,
      todosUpdated: 1,
      todosDeleted: 1,
    });
  });
});

describe('failed sign-ins', () => {
  it('are limited like logins: past the limit a 429', async () => {
    const limited = await createTestApp({ config: { loginAttemptsPerAccount: 3 } });
    try {
      const user = await registerUser(limited.app);
      const attempt = () =>
        limited.app.inject({
          method: 'PROPFIND',
          url: '/dav/',
          headers: {
            authorization: `Basic ${Buffer.from(`${user.email}:tally_pat_wrong`).toString('base64')}`,
          },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await attempt()).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

/**
 * The VTODO examples of RFC 5545, 3.6.2, each in a calendar object as RFC 4791, 4.1 asks (with
 * VERSION and PRODID): what Tally keeps of them and what it writes when it changes them.
 */
const RFC_VTODO_DUE = [
  'BEGIN:VTODO',
  'UID:20070313T123432Z-456553@example.com',
  'DTSTAMP:20070313T123432Z',
  'DUE;VALUE=DATE:20070501',
  'SUMMARY:Submit Quebec Income Tax Return for 2006',
  'CLASS:CONFIDENTIAL',
  'CATEGORIES:FAMILY,FINANCE',
  'STATUS:NEEDS-ACTION',
  'END:VTODO',
];
const RFC_VTODO_TIMED = [
  'BEGIN:VTODO',
  'UID:20070514T103211Z-123404@example.com',
  'DTSTAMP:20070514T103211Z',
  'DTSTART:20070514T110000Z',
  'DUE:20070709T130000Z',
  'COMPLETED:20070707T100000Z',
  'SUMMARY:Submit Revised Internet-Draft',
  'PRIORITY:1',
  'STATUS:NEEDS-ACTION',
  'END:VTODO',
];
const calendarObject = (vtodoLines: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example Corp.//CalDAV Client//EN',
    ...vtodoLines,
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** A line of the object's VTODO (unfolded lines: these are short), or null. */
const lineOf = (text: string, name: string) =>
  text
    .slice(text.indexOf('BEGIN:VTODO'))
    .split('\r\n')
    .find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`)) ?? null;

/** The account's zone set to this one: the zone Tally writes its times in. */
const inZone = (user: DavAccount, zone: string) =>
  apiClient(ctx.app, user)(accountApi.setPreferences, { body: { timeZone: zone } });

describe('objects as the client sent them', () => {
  it('serves an object exactly as sent and answers its ETag; one Tally adds to, without one', async () => {
    const user = await account();
    const sent = calendarObject(RFC_VTODO_DUE);
    const href = `${user.home}todos/tax.ics`;
    const put = await request(user, 'PUT', href, sent);
    expect(put.statusCode).toBe(201);
    expect(put.headers.etag).toMatch(/^"/);
    const get = await request(user, 'GET', href);
    expect(get.body).toBe(sent);
    expect(get.headers.etag).toBe(put.headers.etag);

    // No DTSTAMP: Tally adds the one RFC 5545 requires, nothing else, and answers no ETag.
    const undated = calendarObject(RFC_VTODO_DUE.filter((line) => !line.startsWith('DTSTAMP')));
    const second = await request(
      user,
      'PUT',
      `${user.home}todos/undated.ics`,
      undated
        .replace('UID:20070313T123432Z-456553@example.com', 'UID:undated')
        .replace('SUMMARY:Submit Quebec', 'SUMMARY:Undated: submit Quebec'),
    );
    expect(second.statusCode).toBe(201);
    expect(second.headers.etag).toBeUndefined();
    const stored = (await request(user, 'GET', `${user.home}todos/undated.ics`)).body;
    expect(stored).toContain('DTSTAMP:');
    expect(lineOf(stored, 'CREATED')).toBeNull();
    expect(lineOf(stored, 'LAST-MODIFIED')).toBeNull();
    expect(lineOf(stored, 'CLASS')).toBe('CLASS:CONFIDENTIAL');

    // A change in the web app: Tally writes the object, with no CREATED the client did not send.
    const [tax] = (await apiClient(ctx.app, user)(todosApi.list))
      .json<{ id: number; title: string }[]>()
      .filter((todo) => todo.title.startsWith('Submit Quebec'));
    await apiClient(ctx.app, user)(todosApi.patch, {
      params: { id: tax?.id ?? 0 },
      body: { priority: 3 },
    });
    const changed = (await request(user, 'GET', href)).body;
    expect(lineOf(changed, 'PRIORITY')).toBe('PRIORITY:1');
    expect(lineOf(changed, 'CREATED')).toBeNull();
    expect(lineOf(changed, 'DUE')).toBe('DUE;VALUE=DATE:20070501');
    expect(lineOf(changed, 'DTSTAMP')).not.toBe('DTSTAMP:20070313T123432Z');
  });

  it('writes an object sent with a blank line around its VCALENDAR itself, without an ETag', async () => {
    const user = await account();
    const sent = calendarObject(RFC_VTODO_DUE);
    for (const [name, text] of [
      ['before', `\r\n${sent}`],
      ['after', `${sent}\r\n`],
    ] as const) {
      const href = `${user.home}todos/${name}.ics`;
      const put = await request(user, 'PUT', href, text.replace(/^UID:.*$/m, `UID:${name}`));
      expect(put.statusCode).toBe(201);
      expect(put.headers.etag).toBeUndefined();
      const served = (await request(user, 'GET', href)).body;
      expect(served.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
      expect(served.endsWith('END:VCALENDAR\r\n')).toBe(true);
      expect(lineOf(served, 'UID')).toBe(`UID:${name}`);
    }
  });

  it('writes a UTC due time edited in the web app in UTC, in the wall time of the user’s zone', async () => {
    for (const [zone, wall, edited, due] of [
      [null, '13:00', '15:00', 'DUE:20070709T150000Z'],
      ['Europe/Paris', '15:00', '16:30', 'DUE:20070709T143000Z'],
    ] as const) {
      const user = await account();
      if (zone) await inZone(user, zone);
      const href = `${user.home}todos/draft.ics`;
      await request(user, 'PUT', href, calendarObject(RFC_VTODO_TIMED));
      const api = apiClient(ctx.app, user);
      const [todo] = (await api(todosApi.list)).json<{ id: number; dueTime: string }[]>();
      expect(todo?.dueTime).toBe(wall);
      await api(todosApi.patch, { params: { id: todo?.id ?? 0 }, body: { dueTime: edited } });
      const text = (await request(user, 'GET', href)).body;
      expect(lineOf(text, 'DUE')).toBe(due);
      // What the web app did not change stays as the client wrote it.
      expect(lineOf(text, 'DTSTART')).toBe('DTSTART:20070514T110000Z');
      expect(lineOf(text, 'COMPLETED')).toBe('COMPLETED:20070707T100000Z');
      expect(lineOf(text, 'CREATED')).toBeNull();
    }
  });

  it('writes a due time set in the web app in the user’s zone with its VTIMEZONE, else UTC', async () => {
    for (const [zone, due] of [
      [null, 'DUE:20261201T090000Z'],
      ['Europe/Paris', 'DUE;TZID=Europe/Paris:20261201T090000'],
    ] as const) {
      const user = await account();
      if (zone) await inZone(user, zone);
      const api = apiClient(ctx.app, user);
      const made = (
        await api(todosApi.create, {
          body: {
            title: 'Pay rent',
            dueDate: '2026-12-01',
            dueTime: '09:00',
            startDate: '2026-11-28',
          },
        })
      ).json<{ id: number }>();
      const text = (await request(user, 'GET', `${user.home}todos/tally-${made.id}.ics`)).body;
      expect(lineOf(text, 'DUE')).toBe(due);
      expect(lineOf(text, 'DTSTART')).toBe(
        zone ? 'DTSTART;TZID=Europe/Paris:20261128T000000' : 'DTSTART:20261128T000000Z',
      );
      expect(text.includes('BEGIN:VTIMEZONE')).toBe(zone !== null);
    }
  });

  it("moves an app's repeating todo completed in the web app on, DUE and DTSTART in their own form", async () => {
    const user = await account();
    await inZone(user, 'Europe/Paris');
    const api = apiClient(ctx.app, user);
    const complete = async (title: string) => {
      const todo = (await api(todosApi.list))
        .json<{ id: number; title: string }[]>()
        .find((t) => t.title === title);
      await api(todosApi.patch, { params: { id: todo?.id ?? 0 }, body: { completed: true } });
    };
    // The timed example with a weekly rule, and without its COMPLETED: an open todo.
    const href = `${user.home}todos/weekly.ics`;
    const put = await request(
      user,
      'PUT',
      href,
      calendarObject(
        RFC_VTODO_TIMED.filter((line) => !line.startsWith('COMPLETED')).toSpliced(
          -1,
          0,
          'RRULE:FREQ=WEEKLY',
        ),
      ),
    );
    expect(put.statusCode).toBe(201);
    await complete('Submit Revised Internet-Draft');
    const text = (await request(user, 'GET', href)).body;
    expect(lineOf(text, 'DUE')).toBe('DUE:20070716T130000Z');
    expect(lineOf(text, 'DTSTART')).toBe('DTSTART:20070521T110000Z');
    expect(lineOf(text, 'STATUS')).toBe('STATUS:NEEDS-ACTION');
    expect(lineOf(text, 'COMPLETED')).toBeNull();
    expect(lineOf(text, 'RRULE')).toBe('RRULE:FREQ=WEEKLY');

    // Seconds in its due time: the next one keeps them, and the start keeps its zone.
    const daily = `${user.home}todos/pills.ics`;
    // Its TZID comes without a VTIMEZONE: Tally adds one, and answers no ETag.
    const first = await request(
      user,
      'PUT',
      daily,
      vtodo('pills', [
        'SUMMARY:Pills',
        'DUE:20260310T045959Z',
        'DTSTART;TZID=Europe/Paris:20260309T080000',
        'RRULE:FREQ=DAILY',
      ]),
    );
    expect(first.headers.etag).toBeUndefined();
    await complete('Pills');
    const next = (await request(user, 'GET', daily)).body;
    expect(lineOf(next, 'DUE')).toBe('DUE:20260311T045959Z');
    expect(lineOf(next, 'DTSTART')).toBe('DTSTART;TZID=Europe/Paris:20260310T080000');
    expect(next).toContain('TZID:Europe/Paris');
  });
});
