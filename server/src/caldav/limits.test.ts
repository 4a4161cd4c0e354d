import { todosApi } from '@tally/contract';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { davAccount, type DavAccount, davRequester, vtodoFrom } from '../test/caldav.js';
import { createTestApp, type TestContext } from '../test/helpers.js';

/**
 * What one CalDAV request may hold and what one calendar object may keep (caldav/limits.ts), on
 * SQLite and on PostgreSQL: each bound is a 4xx naming what is over it, answered at once, and
 * nothing is written.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const account = () => davAccount(ctx.app);

const request = davRequester(() => ctx.app, { depth: '1' });

const vtodo = vtodoFrom('Test');

const errorOf = (body: string) => (JSON.parse(body) as { error: string }).error;

/** The todos a user has, through the API: what a refused write must leave alone. */
const todosOf = async (user: DavAccount) =>
  (await apiClient(ctx.app, user)(todosApi.list)).json<{ title: string; tags: string[] }[]>();

describe('CATEGORIES', () => {
  it('refuses 32,000 values at once, counted before duplicates are dropped, and writes nothing', async () => {
    const user = await account();
    const values = Array.from({ length: 32_000 }, (_, i) => `c${i}`).join(',');
    const started = performance.now();
    const put = await request(
      user,
      'PUT',
      `${user.home}todos/many.ics`,
      vtodo('many', ['SUMMARY:Many', `CATEGORIES:${values}`]),
    );
    expect(put.statusCode).toBe(400);
    expect(errorOf(put.body)).toMatch(/^CATEGORIES: /);
    // Fails by the test's timeout when the values are compared with each other.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await todosOf(user)).toEqual([]);
  });

  it('takes a client repeating its categories in several properties, as the same tags', async () => {
    const user = await account();
    const lines = Array.from({ length: 4 }, () => 'CATEGORIES:Home,home,HOME,work');
    const put = await request(
      user,
      'PUT',
      `${user.home}todos/dup.ics`,
      vtodo('dup', ['SUMMARY:Dup', ...lines]),
    );
    expect(put.statusCode, put.body).toBe(201);
    const [todo] = await todosOf(user);
    expect(todo?.tags).toEqual(['Home', 'work']);

    const tooMany = Array.from({ length: 21 }, (_, i) => `t${i}`).join(',');
    const refused = await request(
      user,
      'PUT',
      `${user.home}todos/dup2.ics`,
      vtodo('dup2', ['SUMMARY:Dup', `CATEGORIES:${tooMany}`]),
    );
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused.body)).toBe('CATEGORIES: at most 20 categories');

    const spread = Array.from(
      { length: 3 },
      (_, i) => `CATEGORIES:${Array.from({ length: 40 }, (_, j) => `s${i}-${j}`).join(',')}`,
    );
    const counted = await request(
      user,
      'PUT',
      `${user.home}todos/dup3.ics`,
      vtodo('dup3', ['SUMMARY:Dup', ...spread]),
    );
    expect(counted.statusCode).toBe(400);
    expect(errorOf(counted.body)).toBe('CATEGORIES: at most 100 values');
  });
});

describe('VTIMEZONE', () => {
  const observances = (text: string) => text.match(/^BEGIN:(STANDARD|DAYLIGHT)\r?$/gm)?.length ?? 0;

  it('writes none for zoned properties Tally does not model, which it keeps as written', async () => {
    const user = await account();
    const href = `${user.home}todos/far.ics`;
    const put = await request(
      user,
      'PUT',
      href,
      vtodo('far', [
        'SUMMARY:Far',
        'X-A;TZID=Europe/Berlin;VALUE=DATE-TIME:00010101T000000',
        'X-B;TZID=Europe/Berlin;VALUE=DATE-TIME:99991231T000000',
      ]),
    );
    expect(put.statusCode, put.body).toBe(201);
    const started = performance.now();
    const get = await request(user, 'GET', href);
    expect(get.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(get.body).not.toContain('BEGIN:VTIMEZONE');
    expect(get.body).toContain('X-A;TZID=Europe/Berlin;VALUE=DATE-TIME:00010101T000000');
    expect(get.body).toContain('X-B;TZID=Europe/Berlin;VALUE=DATE-TIME:99991231T000000');
  });

  it('keeps the VTIMEZONE a client sent for such a property', async () => {
    const user = await account();
    const href = `${user.home}todos/own-zone.ics`;
    const zone = [
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Paris',
      'BEGIN:STANDARD',
      'DTSTART:19701025T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'END:STANDARD',
      'END:VTIMEZONE',
    ];
    const text = vtodo('own-zone', [
      'SUMMARY:Own',
      'X-A;TZID=Europe/Paris;VALUE=DATE-TIME:20260101T090000',
    ]);
    const put = await request(
      user,
      'PUT',
      href,
      text.replace('BEGIN:VTODO', [...zone, 'BEGIN:VTODO'].join('\r\n')),
    );
    expect(put.statusCode, put.body).toBe(201);
    const get = await request(user, 'GET', href);
    expect(get.body).toContain(zone.join('\r\n'));
  });

  it("covers only the years of the todo's own dates, however far apart", async () => {
    const user = await account();
    const href = `${user.home}todos/span.ics`;
    const put = await request(
      user,
      'PUT',
      href,
      vtodo('span', [
        'SUMMARY:Span',
        'DTSTART;TZID=Europe/Berlin:19700101T000000',
        'DUE;TZID=Europe/Berlin:99991231T090000',
      ]),
    );
    expect(put.statusCode, put.body).toBe(201);
    const started = performance.now();
    const get = await request(user, 'GET', href);
    expect(get.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
    const calendar = new ICAL.Component(ICAL.parse(get.body) as unknown[]);
    const zone = calendar.getFirstSubcomponent('vtimezone');
    expect(zone?.getFirstPropertyValue('tzid')).toBe('Europe/Berlin');
    // 1970-1972 and 9999, at most two changes a year, and the offset it starts with.
    expect(observances(get.body)).toBeLessThanOrEqual(1 + 2 * 4);
    const starts = zone
      ?.getAllSubcomponents()
      .map((o) => String(o.getFirstPropertyValue('dtstart')));
    expect(starts?.some((start) => start.startsWith('9999'))).toBe(true);
  });
});

describe('sizes', () => {
  it('refuses an object keeping more than 128 KB besides its title and description, naming the largest property', async () => {
    const user = await account();
    const big = 'x'.repeat(100 * 1024);
    const put = await request(
      user,
      'PUT',
      `${user.home}todos/big.ics`,
      vtodo('big', ['SUMMARY:Big', `X-NOTE:${big}`, `X-ATTACHMENT-DATA:${big}x`]),
    );
    expect(put.statusCode).toBe(400);
    expect(errorOf(put.body)).toBe(
      "X-ATTACHMENT-DATA: Tally keeps at most 128 KB of a calendar object's other properties",
    );
    expect(await todosOf(user)).toEqual([]);

    const fits = await request(
      user,
      'PUT',
      `${user.home}todos/fits.ics`,
      vtodo('fits', [
        'SUMMARY:Fits',
        `DESCRIPTION:${'\u6f22'.repeat(20_000)}`,
        `X-NOTE:${'x'.repeat(120 * 1024)}`,
      ]),
    );
    expect(fits.statusCode, fits.body).toBe(201);
  });

  it('refuses more than 10,000 lines, 1,000 properties or 100 values of one property, naming it', async () => {
    const user = await account();
    const lines = Array.from({ length: 1_001 }, (_, i) => `X-N:${i}`);
    const many = await request(
      user,
      'PUT',
      `${user.home}todos/props.ics`,
      vtodo('props', ['SUMMARY:Props', ...lines]),
    );
    expect(many.statusCode).toBe(400);
    expect(errorOf(many.body)).toBe('X-N: a calendar object holds at most 1,000 properties');
    const tooLong = Array.from({ length: 10_001 }, () => 'X-N:1');
    const long = await request(
      user,
      'PUT',
      `${user.home}todos/lines.ics`,
      vtodo('lines', ['SUMMARY:Lines', ...tooLong]),
    );
    expect(long.statusCode).toBe(400);
    expect(errorOf(long.body)).toBe('body: a calendar object holds at most 10,000 lines');
    const dates = Array.from(
      { length: 101 },
      (_, i) =>
        `2026${String(1 + (i % 12)).padStart(2, '0')}${String(1 + Math.floor(i / 12)).padStart(2, '0')}`,
    );
    const values = await request(
      user,
      'PUT',
      `${user.home}todos/values.ics`,
      vtodo('values', ['SUMMARY:Values', `EXDATE;VALUE=DATE:${dates.join(',')}`]),
    );
    expect(values.statusCode).toBe(400);
    expect(errorOf(values.body)).toBe('EXDATE: a property holds at most 100 values');
    expect(await todosOf(user)).toEqual([]);
  });

  it('refuses a body over 256 KiB with a 413 naming that limit', async () => {
    const user = await account();
    const put = await request(
      user,
      'PUT',
      `${user.home}todos/huge.ics`,
      vtodo('huge', ['SUMMARY:Huge', `X-NOTE:${'x'.repeat(300 * 1024)}`]),
    );
    expect(put.statusCode).toBe(413);
    expect(errorOf(put.body)).toBe('The request body is too large (256 KiB at most)');
    // The API's own limit is named on its routes as before.
    const api = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ login: 'x'.repeat(70 * 1024), password: 'x' }),
    });
    expect(api.statusCode).toBe(413);
    expect(errorOf(api.body)).toBe('The request body is too large (64 KiB at most)');
  });

  it('refuses a multiget of more than 10,000 hrefs and a PROPFIND of more than 200 properties', async () => {
    const user = await account();
    const hrefs = Array.from(
      { length: 10_001 },
      (_, i) => `<d:href>${user.home}todos/${i}.ics</d:href>`,
    );
    const multiget = await request(
      user,
      'REPORT',
      `${user.home}todos/`,
      `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>${hrefs.join('')}</c:calendar-multiget>`,
    );
    expect(multiget.statusCode).toBe(400);
    expect(errorOf(multiget.body)).toBe('href: a calendar-multiget names at most 10,000 hrefs');

    const props = Array.from({ length: 201 }, (_, i) => `<x:p${i}/>`).join('');
    const propfind = await request(
      user,
      'PROPFIND',
      user.home,
      `<d:propfind xmlns:d="DAV:" xmlns:x="urn:x"><d:prop>${props}</d:prop></d:propfind>`,
    );
    expect(propfind.statusCode).toBe(400);
    expect(errorOf(propfind.body)).toBe('prop: a request asks for at most 200 properties');
  });

  it('refuses XML nested or wide past 5,000 elements before parsing it', async () => {
    const user = await account();
    const depth = 30_000;
    const started = performance.now();
    const deep = await request(
      user,
      'PROPFIND',
      user.home,
      `<d:propfind xmlns:d="DAV:">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</d:propfind>`,
    );
    expect(deep.statusCode).toBe(400);
    expect(errorOf(deep.body)).toBe('body: an XML request holds at most 5,000 elements');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('gives other requests turns between the responses of a long REPORT', async () => {
    const user = await account();
    for (let i = 0; i < 30; i += 1) {
      const put = await request(user, 'PUT', `${user.home}todos/r${i}.ics`, vtodo(`r${i}`));
      expect(put.statusCode).toBe(201);
    }
    // Every response seems to take a whole slice: the writer then yields after each one, however
    // fast this machine is, and what it lets through is observed by order, not by time.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 10));
    const answered: string[] = [];
    let turns = 0;
    let done = false;
    const count = () => {
      turns += 1;
      if (!done) setImmediate(count);
    };
    try {
      setImmediate(count);
      const report = request(
        user,
        'REPORT',
        `${user.home}todos/`,
        '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>',
      ).then((answer) => {
        answered.push('report');
        return answer;
      });
      // Another request, sent once the REPORT has started writing.
      const other = new Promise<void>((resolve) => {
        setImmediate(() => {
          void request(user, 'OPTIONS', '/dav/').then(() => {
            answered.push('other');
            resolve();
          });
        });
      });
      const [answer] = await Promise.all([report, other]);
      done = true;
      expect(answer.statusCode).toBe(207);
      expect(answer.body.match(/BEGIN:VTODO/g)).toHaveLength(30);
      expect(answered).toEqual(['other', 'report']);
      // A turn of the event loop between every two of its 30 responses.
      expect(turns).toBeGreaterThanOrEqual(30);
    } finally {
      done = true;
      clock.mockRestore();
    }
  });
});
