import { groupsApi, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { davAccount, type DavAccount, davRequester, vtodoFrom } from '../test/caldav.js';
import { createTestApp, type TestContext, type TestUser } from '../test/helpers.js';

/**
 * What a CalDAV client may send that Tally cannot keep: a 4xx naming what is wrong, nothing
 * stored, and nothing stored that a later read of the calendar cannot write back; on SQLite and
 * on PostgreSQL.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const account = () => davAccount(ctx.app);

const request = davRequester(() => ctx.app);

const vtodo = vtodoFrom('Test');

const QUERY = `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>`;
const IN_RANGE = `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:time-range start="20260101T000000Z" end="20270101T000000Z"/><c:prop-filter name="DUE"><c:time-range start="20260101T000000Z"/></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;
const SYNC = `<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;

/** Every read of the calendar a client makes, as statuses: a stored object must not break one. */
async function readsOf(user: DavAccount, calendar = 'todos') {
  const url = `${user.home}${calendar}/`;
  return [
    (await request(user, 'REPORT', url, QUERY)).statusCode,
    (await request(user, 'REPORT', url, IN_RANGE)).statusCode,
    (await request(user, 'REPORT', url, SYNC)).statusCode,
    (await request(user, 'PROPFIND', url, undefined)).statusCode,
  ];
}

const todoCount = async (user: TestUser) =>
  (await apiClient(ctx.app, user)(todosApi.list)).json<unknown[]>().length;

describe('a VTODO Tally cannot keep', () => {
  const deep = (depth: number) => [
    ...Array.from({ length: depth }, () => 'BEGIN:X-NEST'),
    ...Array.from({ length: depth }, () => 'END:X-NEST'),
  ];
  const refused: [string, string, string][] = [
    [
      'a RRULE with a bad UNTIL',
      vtodo('u', ['DUE;VALUE=DATE:20260310', 'RRULE:FREQ=DAILY;UNTIL=soon']),
      'RRULE',
    ],
    [
      'a VALARM with a bad TRIGGER',
      vtodo(
        't',
        ['DUE:20260310T120000Z'],
        ['BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER;RELATED=END:-PTXM', 'END:VALARM'],
      ),
      'TRIGGER',
    ],
    ['components nested 20 deep', vtodo('n', [], deep(20)), 'nest'],
    ['a DATE-TIME DUE without a time', vtodo('d', ['DUE;VALUE=DATE-TIME:20260310']), 'DUE'],
    ['a DTSTART that is no date', vtodo('s', ['DTSTART;VALUE=DATE:2026']), 'DTSTART'],
    ['a SUMMARY with a NUL character', vtodo('z', ['SUMMARY:a\u0000b']), 'SUMMARY'],
    ['a DESCRIPTION with a NUL character', vtodo('y', ['DESCRIPTION:a\u0000b']), 'DESCRIPTION'],
    ['a UID with a NUL character', vtodo('x\u0000x', []), 'UID'],
  ];
  it.each(refused)(
    'refuses %s with a 400 naming it, and stores nothing',
    async (_name, body, named) => {
      const user = await account();
      const answer = await request(user, 'PUT', `${user.home}todos/a.ics`, body);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json<{ error: string }>().error).toContain(named);
      expect(await todoCount(user)).toBe(0);
      expect(await readsOf(user)).toEqual([207, 207, 207, 207]);
    },
  );

  it('keeps a zone it does not know as written, and every later read of the calendar works', async () => {
    const user = await account();
    const put = await request(
      user,
      'PUT',
      `${user.home}todos/mars.ics`,
      vtodo('mars', [
        'SUMMARY:Mars',
        'DUE;TZID=Mars/Olympus:20260310T120000',
        'DTSTART;TZID=Mars/Olympus:20260309T120000',
      ]),
    );
    expect(put.statusCode, put.body).toBe(201);
    expect(await readsOf(user)).toEqual([207, 207, 207, 207]);
    const get = await request(user, 'GET', `${user.home}todos/mars.ics`);
    expect(get.statusCode).toBe(200);
    expect(get.body).toContain('DUE;TZID=Mars/Olympus:20260310T120000');
  });

  // More lines than the count the parser takes (caldav/limits.ts) in a body under its size limit:
  // whatever is stored reads back.
  it.each(['X-A:b', 'CATEGORIES:same'])(
    'never answers 5xx for 12,000 lines of %s, nor stores what later reads cannot write back',
    async (line) => {
      const user = await account();
      const body = vtodo(
        'many',
        Array.from({ length: 12_000 }, () => line),
      );
      const put = await request(user, 'PUT', `${user.home}todos/many.ics`, body);
      expect(put.statusCode).toBeLessThan(500);
      expect(await readsOf(user)).toEqual([207, 207, 207, 207]);
      if (put.statusCode === 201) {
        expect((await request(user, 'GET', `${user.home}todos/many.ics`)).statusCode).toBe(200);
      } else {
        expect(put.statusCode).toBe(400);
        expect(put.json<{ error: string }>().error).toContain('lines');
      }
    },
    60_000,
  );

  it('answers every query of a calendar holding an object stored before such values were refused', async () => {
    const user = await account();
    await request(user, 'PUT', `${user.home}todos/old.ics`, vtodo('old', ['SUMMARY:Old']));
    // As a PUT stored it before: a DUE of DATE-TIME without a time, kept as the client wrote it.
    const row = await ctx.database.handle.db
      .selectFrom('todos')
      .select(['id', 'ics_extra'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const extra = JSON.parse(row.ics_extra ?? '{}') as { props: unknown[] };
    extra.props.push(
      ['x-due', {}, 'date-time', '2026-03-10T::'],
      ['due', {}, 'date-time', '2026-03-10T::'],
    );
    await ctx.database.handle.db
      .updateTable('todos')
      .set({ ics_extra: JSON.stringify(extra) })
      .where('id', '=', row.id)
      .execute();
    expect(await readsOf(user)).toEqual([207, 207, 207, 207]);
    const filtered = await request(
      user,
      'REPORT',
      `${user.home}todos/`,
      `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:prop-filter name="X-DUE"><c:text-match>2026</c:text-match></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
    );
    expect(filtered.statusCode).toBe(207);
  });

  it('takes a UID like a Tally id beyond the id column as a client UID', async () => {
    const user = await account();
    const big = 'tally-99999999999';
    const put = await request(
      user,
      'PUT',
      `${user.home}todos/${big}.ics`,
      vtodo(big, ['SUMMARY:Big']),
    );
    expect(put.statusCode, put.body).toBe(201);
    const get = await request(user, 'GET', `${user.home}todos/${big}.ics`);
    expect(get.statusCode).toBe(200);
    expect(get.body).toContain(`UID:${big}`);
    expect((await request(user, 'GET', `${user.home}todos/tally-4294967296.ics`)).statusCode).toBe(
      404,
    );
    const child = await request(
      user,
      'PUT',
      `${user.home}todos/child.ics`,
      vtodo('child', ['SUMMARY:Child', 'RELATED-TO:tally-4294967296']),
    );
    expect(child.statusCode, child.body).toBe(201);
  });

  it('answers a multiget naming an href that is no URL, or a NUL, with a 400 naming the href', async () => {
    const user = await account();
    for (const href of ['http://[::1', `${user.home}todos/a%00.ics`]) {
      const answer = await request(
        user,
        'REPORT',
        `${user.home}todos/`,
        `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><d:href>${href}</d:href></c:calendar-multiget>`,
      );
      expect(answer.statusCode, href).toBe(400);
      expect(answer.json<{ error: string }>().error).toContain('href');
    }
  });

  it('refuses a resource name with a NUL character', async () => {
    const user = await account();
    const put = await request(user, 'PUT', `${user.home}todos/a%00b.ics`, vtodo('nul-name'));
    expect(put.statusCode).toBe(400);
    expect(await todoCount(user)).toBe(0);
    expect((await request(user, 'GET', `${user.home}todos/a%00b.ics`)).statusCode).toBe(400);
  });

  it('answers 201 for a new parent whose waiting subtask cannot become its subtask', async () => {
    const user = await account();
    // The child names the parent before it exists; the parent names the child as its own parent:
    // the child cannot then also be the parent's subtask (a loop), and stays where it is.
    const child = await request(
      user,
      'PUT',
      `${user.home}todos/child.ics`,
      vtodo('child', ['SUMMARY:Child', 'RELATED-TO:parent']),
    );
    expect(child.statusCode).toBe(201);
    const parent = await request(
      user,
      'PUT',
      `${user.home}todos/parent.ics`,
      vtodo('parent', ['SUMMARY:Parent', 'RELATED-TO:child']),
    );
    expect(parent.statusCode, parent.body).toBe(201);
    const todos = (await apiClient(ctx.app, user)(todosApi.list)).json<
      { title: string; parentId: number | null; id: number }[]
    >();
    const byTitle = new Map(todos.map((t) => [t.title, t]));
    expect(byTitle.get('Parent')?.parentId).toBe(byTitle.get('Child')?.id);
    expect(byTitle.get('Child')?.parentId).toBeNull();
  });
});

describe('paths that are not the caller’s', () => {
  it("answers 404 for another user's or an unknown path, whatever the method", async () => {
    const first = await account();
    const second = await account();
    await request(first, 'PUT', `${first.home}todos/a.ics`, vtodo('a', ['SUMMARY:Mine']));
    const paths = [
      `${first.home}todos/a.ics`,
      `${first.home}todos/`,
      first.home,
      `/dav/principals/${first.id}/`,
      '/dav/unknown/',
      '/dav/calendars/',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'PUT', 'DELETE', 'REPORT', 'PROPPATCH'] as const) {
        const body =
          method === 'PUT'
            ? vtodo('b')
            : method === 'GET' || method === 'DELETE'
              ? undefined
              : SYNC;
        const answer = await request(second, method, path, body);
        expect(answer.statusCode, `${method} ${path}`).toBe(404);
      }
    }
    expect(await todoCount(first)).toBe(1);
  });
});

describe('calendar names', () => {
  const mkcalendar = (user: DavAccount, segment: string, name?: string) =>
    request(
      user,
      'MKCALENDAR',
      `${user.home}${segment}/`,
      name === undefined
        ? undefined
        : `<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>${name}</d:displayname></d:prop></d:set></c:mkcalendar>`,
    );

  it('refuses what the group API refuses, in the displayname or the path, and makes no group', async () => {
    const user = await account();
    const cases: [string, string | undefined, string][] = [
      ['nul', 'a&#0;b', 'displayname'],
      ['long', 'x'.repeat(51), 'displayname'],
      ['a%00b', undefined, 'NUL'],
      ['x'.repeat(15_000), undefined, 'calendar'],
      ['a%01b', undefined, 'calendar'],
      ['a%E2%80%AEb', undefined, 'calendar'],
      ['a%7Fb', 'Fine', 'calendar'],
    ];
    for (const [segment, name, named] of cases) {
      const answer = await mkcalendar(user, segment, name);
      expect(answer.statusCode, `${segment} ${name}`).toBe(400);
      expect(answer.json<{ error: string }>().error).toContain(named);
    }
    expect((await apiClient(ctx.app, user)(groupsApi.list)).json()).toEqual([]);
    expect((await mkcalendar(user, 'fine', 'Fine \u202e name')).statusCode).toBe(201);
    const renamed = await request(
      user,
      'PROPPATCH',
      `${user.home}fine/`,
      `<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>a&#0;b</d:displayname></d:prop></d:set></d:propertyupdate>`,
    );
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json<{ error: string }>().error).toContain('displayname');
    expect((await apiClient(ctx.app, user)(groupsApi.list)).json()).toMatchObject([
      { name: 'Fine \u202e name' },
    ]);
  });
});

describe('XML bodies', () => {
  it('reads a CDATA section holding <!DOCTYPE as text, and still refuses a document type', async () => {
    const user = await account();
    await request(user, 'MKCALENDAR', `${user.home}work/`);
    const patch = (body: string) => request(user, 'PROPPATCH', `${user.home}work/`, body);
    const cdata = await patch(
      `<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname><![CDATA[<!DOCTYPE x>]]></d:displayname></d:prop></d:set></d:propertyupdate>`,
    );
    expect(cdata.statusCode, cdata.body).toBe(207);
    expect((await apiClient(ctx.app, user)(groupsApi.list)).json()).toMatchObject([
      { name: '<!DOCTYPE x>' },
    ]);
    const doctype = await patch(
      `<!DOCTYPE d:propertyupdate [<!ENTITY x SYSTEM "file:///etc/passwd">]><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>&x;</d:displayname></d:prop></d:set></d:propertyupdate>`,
    );
    expect(doctype.statusCode).toBe(400);
    expect((await apiClient(ctx.app, user)(groupsApi.list)).json()).toMatchObject([
      { name: '<!DOCTYPE x>' },
    ]);
  });

  it('answers every CalDAV request with no-store, errors too', async () => {
    const user = await account();
    const answers = [
      await request(user, 'PROPFIND', '/dav/', undefined),
      await request(user, 'GET', `${user.home}todos/none.ics`),
      await request(user, 'PUT', `${user.home}todos/bad.ics`, 'not a calendar'),
      await ctx.app.inject({ method: 'PROPFIND', url: '/dav/' }),
      await ctx.app.inject({ method: 'OPTIONS', url: '/dav/' }),
      await ctx.app.inject({
        method: 'PROPFIND',
        url: '/',
        headers: { authorization: user.basic },
      }),
      await ctx.app.inject({ method: 'GET', url: '/.well-known/caldav' }),
    ];
    expect(answers.map((a) => a.headers['cache-control'])).toEqual(answers.map(() => 'no-store'));
  });
});
