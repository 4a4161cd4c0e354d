import { statisticsApi, todosApi } from '@tally/contract';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { davAccount, type DavAccount, davRequester, vtodoFrom } from '../test/caldav.js';
import { createTestApp, type TestContext } from '../test/helpers.js';
import { CALDAV_REQUESTS_PER_WINDOW } from './limits.js';

/**
 * CalDAV where the RFCs and the servers clients are tested against (Radicale, Xandikos) say
 * what to answer: one UID in two calendars, repeating todos in a time range, the DAV error
 * bodies of preconditions, a principal search and the request budget of a first sync.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const account = () => davAccount(ctx.app);

const request = davRequester(() => ctx.app);

const vtodo = vtodoFrom('Test');

const xml = (text: string) =>
  new DOMParser().parseFromString(text, 'text/xml').documentElement as Element;

/** The hrefs of a multistatus's responses. */
const hrefsOf = (text: string) =>
  Array.from(xml(text).getElementsByTagNameNS('DAV:', 'response')).map(
    (response) => response.getElementsByTagNameNS('DAV:', 'href')[0]?.textContent ?? '',
  );

/** The DAV:error of a refusal: its conditions by namespace and local name, with their hrefs. */
function errorOf(response: { headers: Record<string, unknown>; body: string }) {
  expect(response.headers['content-type']).toMatch(/^application\/xml/);
  const root = xml(response.body);
  expect([root.namespaceURI, root.localName]).toEqual(['DAV:', 'error']);
  return Array.from(root.childNodes)
    .filter((node) => node.nodeType === node.ELEMENT_NODE)
    .map((node) => {
      const element = node as Element;
      const hrefs = Array.from(element.getElementsByTagNameNS('DAV:', 'href')).map(
        (href) => href.textContent,
      );
      return { ns: element.namespaceURI, name: element.localName, hrefs };
    });
}

const mkcalendar = async (user: DavAccount, segment: string) => {
  const made = await request(user, 'MKCALENDAR', `${user.home}${segment}/`);
  expect(made.statusCode).toBe(201);
};

describe('one UID in two calendars', () => {
  it('makes a second todo in the other calendar, as Radicale and Xandikos do, and leaves the first where it is', async () => {
    const user = await account();
    await mkcalendar(user, 'work');
    const first = await request(
      user,
      'PUT',
      `${user.home}todos/shared.ics`,
      vtodo('shared', ['SUMMARY:In Todos']),
      { 'if-none-match': '*' },
    );
    expect(first.statusCode).toBe(201);
    // Radicale's answer to the same request: 201 Created, the first object untouched.
    const second = await request(
      user,
      'PUT',
      `${user.home}work/shared.ics`,
      vtodo('shared', ['SUMMARY:In Work']),
      { 'if-none-match': '*' },
    );
    expect(second.statusCode).toBe(201);
    const inTodos = await request(user, 'GET', `${user.home}todos/shared.ics`);
    expect(inTodos.statusCode).toBe(200);
    expect(inTodos.body).toContain('SUMMARY:In Todos');
    const inWork = await request(user, 'GET', `${user.home}work/shared.ics`);
    expect(inWork.body).toContain('SUMMARY:In Work');
    const titles = (await apiClient(ctx.app, user)(todosApi.list))
      .json<{ title: string }[]>()
      .map((todo) => todo.title)
      .sort();
    expect(titles).toEqual(['In Todos', 'In Work']);
  });

  it('lets a client move a todo to another calendar by a PUT there and a DELETE here', async () => {
    const user = await account();
    await mkcalendar(user, 'home');
    await request(user, 'PUT', `${user.home}todos/move.ics`, vtodo('move', ['SUMMARY:Move me']));
    const put = await request(
      user,
      'PUT',
      `${user.home}home/move.ics`,
      vtodo('move', ['SUMMARY:Move me']),
      { 'if-none-match': '*' },
    );
    expect(put.statusCode).toBe(201);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `${user.home}todos/move.ics`,
      headers: { authorization: user.basic },
    });
    expect(removed.statusCode).toBe(204);
    expect((await request(user, 'GET', `${user.home}home/move.ics`)).statusCode).toBe(200);
    const list = (await apiClient(ctx.app, user)(todosApi.list)).json<{ title: string }[]>();
    expect(list.map((todo) => todo.title)).toEqual(['Move me']);
  });

  it('refuses the UID twice in one calendar with 409 no-uid-conflict naming the holder', async () => {
    const user = await account();
    await request(user, 'PUT', `${user.home}todos/a.ics`, vtodo('same', ['SUMMARY:A']));
    const clash = await request(
      user,
      'PUT',
      `${user.home}todos/b.ics`,
      vtodo('same', ['SUMMARY:B']),
      { 'if-none-match': '*' },
    );
    expect(clash.statusCode).toBe(409);
    expect(errorOf(clash)).toEqual([
      {
        ns: 'urn:ietf:params:xml:ns:caldav',
        name: 'no-uid-conflict',
        hrefs: [`${user.home}todos/a.ics`],
      },
    ]);
    // Another UID on an existing resource is the same condition (RFC 4791, 5.3.2.1).
    const changed = await request(user, 'PUT', `${user.home}todos/a.ics`, vtodo('other'));
    expect(changed.statusCode).toBe(409);
    expect(errorOf(changed)[0]).toMatchObject({
      name: 'no-uid-conflict',
      hrefs: [`${user.home}todos/a.ics`],
    });
    const list = (await apiClient(ctx.app, user)(todosApi.list)).json<{ title: string }[]>();
    expect(list.map((todo) => todo.title)).toEqual(['A']);
  });
});

const query = (start: string, end: string) => `<?xml version="1.0"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><d:getetag/></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">
    <c:time-range start="${start}" end="${end}"/>
  </c:comp-filter></c:comp-filter></c:filter>
</c:calendar-query>`;

describe('repeating todos in a time-range calendar-query', () => {
  it('finds a todo by a later occurrence, not past its last one', async () => {
    const user = await account();
    // 2026-03-01 is a Sunday: the weekly todo is due every Sunday from 10:00 UTC.
    await request(
      user,
      'PUT',
      `${user.home}todos/weekly.ics`,
      vtodo('weekly', [
        'SUMMARY:Weekly',
        'DTSTART:20260301T090000Z',
        'DUE:20260301T100000Z',
        'RRULE:FREQ=WEEKLY',
      ]),
    );
    await request(
      user,
      'PUT',
      `${user.home}todos/twice.ics`,
      vtodo('twice', ['SUMMARY:Twice', 'DUE:20260301T100000Z', 'RRULE:FREQ=DAILY;COUNT=2']),
    );
    await request(
      user,
      'PUT',
      `${user.home}todos/once.ics`,
      vtodo('once', ['SUMMARY:Once', 'DUE:20260301T100000Z']),
    );
    const found = async (start: string, end: string) => {
      const answer = await request(user, 'REPORT', `${user.home}todos/`, query(start, end), {
        depth: '1',
      });
      expect(answer.statusCode).toBe(207);
      return hrefsOf(answer.body)
        .map((href) => href.slice(`${user.home}todos/`.length))
        .sort();
    };
    // Sunday 5 April: the weekly todo's sixth occurrence (Radicale answers it too).
    expect(await found('20260405T000000Z', '20260406T000000Z')).toEqual(['weekly.ics']);
    // A Wednesday: no occurrence of either.
    expect(await found('20260401T000000Z', '20260402T000000Z')).toEqual([]);
    // 2 March: the daily todo's second and last occurrence.
    expect(await found('20260302T000000Z', '20260303T000000Z')).toEqual(['twice.ics']);
    expect(await found('20260303T000000Z', '20260304T000000Z')).toEqual([]);
    expect(await found('20260301T000000Z', '20260302T000000Z')).toEqual([
      'once.ics',
      'twice.ics',
      'weekly.ics',
    ]);
  });

  it('finds daily and monthly todos years on, at their own wall-clock time, and a fortnightly one', async () => {
    const user = await account();
    const berlin = [
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'BEGIN:DAYLIGHT',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'TZNAME:CEST',
      'DTSTART:19700329T020000',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'TZNAME:CET',
      'DTSTART:19701025T030000',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
      'END:STANDARD',
      'END:VTIMEZONE',
    ].join('\r\n');
    const daily = vtodo('daily', [
      'SUMMARY:Daily',
      'DTSTART;TZID=Europe/Berlin:20260301T090000',
      'DUE;TZID=Europe/Berlin:20260301T093000',
      'RRULE:FREQ=DAILY',
    ]).replace('BEGIN:VTODO', `${berlin}\r\nBEGIN:VTODO`);
    expect((await request(user, 'PUT', `${user.home}todos/daily.ics`, daily)).statusCode).toBe(201);
    const biweekly = vtodo('biweekly', [
      'SUMMARY:Every other Monday and Wednesday',
      'DUE:20260302T100000Z',
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE',
    ]);
    await request(user, 'PUT', `${user.home}todos/biweekly.ics`, biweekly);
    const monthly = vtodo('monthly', [
      'SUMMARY:Monthly',
      'DUE:20260315T100000Z',
      'RRULE:FREQ=MONTHLY',
    ]);
    await request(user, 'PUT', `${user.home}todos/monthly.ics`, monthly);
    const found = async (start: string, end: string) => {
      const answer = await request(user, 'REPORT', `${user.home}todos/`, query(start, end));
      return hrefsOf(answer.body).map((href) => href.slice(`${user.home}todos/`.length));
    };
    // 1 July 2028, 09:00 in Berlin's summer time, is 07:00 UTC (the served VTIMEZONE covers the
    // due date's year and the two after it).
    expect(await found('20280701T065000Z', '20280701T071000Z')).toEqual(['daily.ics']);
    expect(await found('20280701T074000Z', '20280701T080000Z')).toEqual([]);
    // The 653rd month after the first: found without walking through the months between.
    expect(await found('20800715T090000Z', '20800715T110000Z')).toEqual(['monthly.ics']);
    expect(await found('20800716T090000Z', '20800716T110000Z')).toEqual([]);
    // Wednesday 18 March 2026 is in the second fortnight: Monday 16 and Wednesday 18.
    expect(await found('20260318T000000Z', '20260319T000000Z')).toContain('biweekly.ics');
    expect(await found('20260311T000000Z', '20260312T000000Z')).not.toContain('biweekly.ics');
  });
});

/** python-caldav's yearly example (testSearchTodos), an RFC 5545 3.6.2 VTODO with a rule. */
const yearly = (uid: string, more: string[] = []) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example Corp.//CalDAV Client//EN',
    'BEGIN:VTODO',
    `UID:${uid}`,
    'DTSTAMP:19920901T130000Z',
    'DTSTART:19920415T133000Z',
    'DUE:19920516T045959Z',
    'SUMMARY:Yearly Income Tax Preparation',
    'RRULE:FREQ=YEARLY',
    'CLASS:CONFIDENTIAL',
    'CATEGORIES:FAMILY,FINANCE',
    'PRIORITY:1',
    ...more,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** What a client asks for its open todos (python-caldav's search(todo=True)). */
const openTodos = `<?xml version="1.0"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><d:getetag/></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">
    <c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter>
    <c:prop-filter name="STATUS"><c:text-match negate-condition="yes">COMPLETED</c:text-match></c:prop-filter>
  </c:comp-filter></c:comp-filter></c:filter>
</c:calendar-query>`;

describe('a repeating todo an app completes', () => {
  it('keeps the whole series completed as sent, as Radicale does; a search for open todos leaves it out', async () => {
    const user = await account();
    const href = `${user.home}todos/yearly.ics`;
    expect((await request(user, 'PUT', href, yearly('yearly'))).statusCode).toBe(201);
    // python-caldav's complete() (no handle_rrule): STATUS and COMPLETED on the VTODO holding
    // the RRULE. Radicale 3.1.8 answered this PUT with its ETag, a GET with the same properties
    // (its own order) and the query below with an empty multistatus.
    const done = yearly('yearly', ['STATUS:COMPLETED', 'COMPLETED:20261129T104900Z']);
    const put = await request(user, 'PUT', href, done);
    expect(put.statusCode).toBe(204);
    expect(put.headers.etag).toEqual(expect.any(String));
    const read = await request(user, 'GET', href);
    expect(read.body).toBe(done);
    expect(read.headers.etag).toBe(put.headers.etag);
    const open = await request(user, 'REPORT', `${user.home}todos/`, openTodos, { depth: '1' });
    expect(open.statusCode).toBe(207);
    expect(hrefsOf(open.body)).toEqual([]);
    const api = apiClient(ctx.app, user);
    const [todo] = (await api(todosApi.list)).json<Record<string, unknown>[]>();
    expect(todo).toMatchObject({ completed: true, dueDate: '1992-05-16', dueTime: '04:59' });
    expect(todo?.repeat).toMatchObject({ every: 1, unit: 'year' });
    const stats = (await api(statisticsApi.total)).json<{ todosCompleted: number }>();
    expect(stats.todosCompleted).toBe(1);

    // Uploaded completed (a first sync of a finished series): it stays so.
    const finished = yearly('finished', ['STATUS:COMPLETED', 'COMPLETED:19930101T000000Z']);
    const made = await request(user, 'PUT', `${user.home}todos/finished.ics`, finished, {
      'if-none-match': '*',
    });
    expect(made.statusCode).toBe(201);
    expect((await request(user, 'GET', `${user.home}todos/finished.ics`)).body).toBe(finished);
  });
});

describe('DAV error bodies', () => {
  it('refuses a VEVENT with 403 supported-calendar-component and writes nothing', async () => {
    const user = await account();
    const event = await request(
      user,
      'PUT',
      `${user.home}todos/ev.ics`,
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nDTSTART:20260310T120000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
    expect(event.statusCode).toBe(403);
    expect(errorOf(event)).toEqual([
      { ns: 'urn:ietf:params:xml:ns:caldav', name: 'supported-calendar-component', hrefs: [] },
    ]);
    const mixed = await request(
      user,
      'PUT',
      `${user.home}todos/mixed.ics`,
      vtodo('mixed').replace(
        'END:VCALENDAR',
        'BEGIN:VEVENT\r\nUID:mixed\r\nEND:VEVENT\r\nEND:VCALENDAR',
      ),
    );
    expect(mixed.statusCode).toBe(403);
    expect(errorOf(mixed)[0]?.name).toBe('supported-calendar-component');
    expect((await apiClient(ctx.app, user)(todosApi.list)).json()).toEqual([]);
  });

  it('ends a calendar object at END:VCALENDAR and its line break, with no empty line', async () => {
    const user = await account();
    await request(user, 'PUT', `${user.home}todos/t.ics`, vtodo('t', ['SUMMARY:T']));
    const got = await request(user, 'GET', `${user.home}todos/t.ics`);
    expect(got.body.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(got.body.endsWith('\r\n\r\n')).toBe(false);
  });

  it('answers a principal-property-search on /dav/ with the matching principal only', async () => {
    const user = await account();
    const search = (match: string, property = '<d:displayname/>') => `<?xml version="1.0"?>
<d:principal-property-search xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:property-search><d:prop>${property}</d:prop><d:match>${match}</d:match></d:property-search>
  <d:prop><d:displayname/><c:calendar-home-set/></d:prop>
</d:principal-property-search>`;
    const hit = await request(user, 'REPORT', '/dav/', search(user.username.toUpperCase()));
    expect(hit.statusCode).toBe(207);
    expect(hrefsOf(hit.body)).toEqual([`/dav/principals/${user.id}/`]);
    expect(hit.body).toContain(`<d:href>${user.home}</d:href>`);
    const byAddress = await request(
      user,
      'REPORT',
      `/dav/principals/${user.id}/`,
      search(user.email, '<c:calendar-user-address-set/>'),
    );
    expect(hrefsOf(byAddress.body)).toEqual([`/dav/principals/${user.id}/`]);
    const miss = await request(user, 'REPORT', '/dav/', search('somebody-else'));
    expect(miss.statusCode).toBe(207);
    expect(hrefsOf(miss.body)).toEqual([]);
    const set = await request(
      user,
      'REPORT',
      '/dav/',
      '<d:principal-search-property-set xmlns:d="DAV:"/>',
    );
    expect(set.statusCode).toBe(200);
    expect(set.body).toContain('<d:displayname/>');
    const other = await request(user, 'REPORT', '/dav/', '<d:expand-property xmlns:d="DAV:"/>');
    expect(other.statusCode).toBe(403);
    expect(errorOf(other)[0]?.name).toBe('supported-report');
  });
});

describe('the request budget of an app password', () => {
  it('lets a first sync of 10,000 todos through: a listing, then multigets of ten, or one of all', async () => {
    const user = await account();
    const db = ctx.database.handle.db;
    const now = ctx.clock.now();
    for (let batch = 0; batch < 10; batch += 1) {
      await db
        .insertInto('todos')
        .values(
          Array.from({ length: 1_000 }, (_, i) => ({
            user_id: user.id,
            group_id: null,
            title: `t${batch * 1_000 + i}`,
            description: null,
            completed: 0,
            created_at: now,
            updated_at: now,
            due_date: null,
            due_time: null,
            repeat: null,
            import_key: null,
            search_text: `t${batch * 1_000 + i}`,
          })),
        )
        .execute();
    }
    const listing = await request(
      user,
      'PROPFIND',
      `${user.home}todos/`,
      '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>',
      { depth: '1' },
    );
    expect(listing.statusCode).toBe(207);
    const hrefs = hrefsOf(listing.body).slice(1);
    expect(hrefs).toHaveLength(10_000);
    // DAVx⁵ fetches ten objects a multiget: 1,000 REPORTs within a minute on a fast network.
    const statuses = new Map<number, number>();
    let fetched = 0;
    for (let at = 0; at < hrefs.length; at += 10) {
      const multiget = await request(
        user,
        'REPORT',
        `${user.home}todos/`,
        `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:prop><d:getetag/><c:calendar-data/></d:prop>
${hrefs
  .slice(at, at + 10)
  .map((href) => `<d:href>${href}</d:href>`)
  .join('')}</c:calendar-multiget>`,
      );
      statuses.set(multiget.statusCode, (statuses.get(multiget.statusCode) ?? 0) + 1);
      fetched += multiget.body.split('BEGIN:VTODO').length - 1;
    }
    expect(Object.fromEntries(statuses)).toEqual({ 207: 1_000 });
    expect(fetched).toBe(10_000);
    // vdirsyncer names every object in one multiget.
    const all = await request(
      user,
      'REPORT',
      `${user.home}todos/`,
      `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:prop><d:getetag/></d:prop>${hrefs.map((href) => `<d:href>${href}</d:href>`).join('\n')}</c:calendar-multiget>`,
    );
    expect(all.statusCode).toBe(207);
    expect(hrefsOf(all.body)).toHaveLength(10_000);
  }, 120_000);

  it('answers past the budget 429 with Retry-After, and keeps counting failed sign-ins apart', async () => {
    const user = await account();
    // The budget spent as a client would, without 12,000 requests' time in the test.
    for (let spent = 0; spent < CALDAV_REQUESTS_PER_WINDOW; spent += 1) {
      await ctx.app.counters.hit(`caldav-token:${user.tokenId}`, 15 * 60_000);
    }
    const refused = await request(user, 'PROPFIND', user.home, undefined, { depth: '0' });
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The API's per-minute limit of the same token is its own.
    const api = await ctx.app.inject({
      method: 'GET',
      url: '/api/todos',
      headers: {
        authorization: `Bearer ${Buffer.from(user.basic.slice(6), 'base64').toString().split(':')[1]}`,
      },
    });
    expect(api.statusCode).toBe(200);
  });
});
