import { tokensApi } from '@tally/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { apiClient } from './api-client.js';
import { registerUser, type TestClock, type TestUser } from './helpers.js';
import type { RouteEntry } from './security.js';

/**
 * CalDAV for the tests: an account with an app password as a calendar app signs in with it, its
 * requests, the calendar objects it sends and, for the route-table sweeps (security/access, fuzz
 * and payloads tests), the bodies a calendar app sends with each method the /dav routes take.
 */

/** A user with an app password: its Basic credentials and its calendar home. */
export interface DavAccount extends TestUser {
  basic: string;
  home: string;
  /** The app password itself, for a real client that signs in with it. */
  appPassword: string;
  tokenId: number;
}

interface AppPasswordOptions {
  scope?: 'read' | 'read-write';
  name?: string;
}

/** Gives `user` an app password (read-write unless `scope` says otherwise). */
async function appPassword(
  app: FastifyInstance,
  user: TestUser,
  { scope = 'read-write', name = 'Phone' }: AppPasswordOptions,
): Promise<Omit<DavAccount, keyof TestUser>> {
  const made = await apiClient(app, user)(tokensApi.create, {
    body: { name, scope, expiresInDays: null },
  });
  const { token, id } = made.json<{ token: string; id: number }>();
  return {
    appPassword: token,
    tokenId: id,
    basic: `Basic ${Buffer.from(`${user.email}:${token}`).toString('base64')}`,
    home: `/dav/calendars/${user.id}/`,
  };
}

/** Registers a user and gives it an app password. */
export async function davAccount(
  app: FastifyInstance,
  options: AppPasswordOptions = {},
): Promise<DavAccount> {
  const user = await registerUser(app);
  return { ...user, ...(await appPassword(app, user, options)) };
}

type DavMethod =
  'GET' | 'PUT' | 'DELETE' | 'PROPFIND' | 'REPORT' | 'MKCALENDAR' | 'PROPPATCH' | 'OPTIONS';

/**
 * CalDAV requests to the app `app` answers when called (a test file makes its app in beforeAll),
 * signed with the account's app password and sending `headers` too; a body is iCalendar for PUT,
 * XML else.
 */
export const davRequester =
  (app: () => FastifyInstance, headers: Record<string, string> = {}) =>
  (
    user: Pick<DavAccount, 'basic'>,
    method: DavMethod,
    url: string,
    body?: string,
    more: Record<string, string> = {},
  ) =>
    app().inject({
      method,
      url,
      headers: {
        authorization: user.basic,
        ...headers,
        ...(body === undefined
          ? {}
          : { 'content-type': method === 'PUT' ? 'text/calendar' : 'application/xml' }),
        ...more,
      },
      ...(body === undefined ? {} : { payload: body }),
    });

export interface DavCredentials {
  basic: string;
  home: string;
}

/** An app password (a read-write API token) for the user, as Basic credentials. */
export async function davCredentials(
  app: FastifyInstance,
  user: TestUser,
): Promise<DavCredentials> {
  const { basic, home } = await appPassword(app, user, { name: 'Sweep' });
  return { basic, home };
}

/** The /dav routes' methods, as Fastify registered them (HEAD too, when it exposes GET's). */
export const davMethods = (entries: RouteEntry[]) => [
  ...new Set(entries.filter((e) => e.url.startsWith('/dav')).map((e) => e.method)),
];

/** The values a sweep fills each /dav route's path parameters with (`*`: any other path). */
export interface DavPathValues {
  owner: (string | number)[];
  calendar: string[];
  name: string[];
  '*': string[];
}

/**
 * Every path of the /dav routes Fastify registered for `method`, its parameters filled with each
 * of their values, so a route added to the tree later is swept without editing the sweeps.
 */
export function davRoutePaths(entries: RouteEntry[], method: string, values: DavPathValues) {
  const urls = [
    ...new Set(
      entries.filter((e) => e.url.startsWith('/dav') && e.method === method).map((e) => e.url),
    ),
  ];
  return urls.flatMap((url) => {
    let paths = [url];
    for (const key of Object.keys(values) as (keyof DavPathValues)[]) {
      const marker = key === '*' ? '*' : `:${key}`;
      paths = paths.flatMap((path) =>
        path.includes(marker)
          ? values[key].map((value) =>
              path.replace(marker, key === '*' ? String(value) : encodeURIComponent(value)),
            )
          : [path],
      );
    }
    return paths;
  });
}

const NS = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"';

/**
 * The calendar objects a client whose PRODID names `product` sends: one VTODO holding `lines`,
 * then the `components` nested in it.
 */
export const vtodoFrom =
  (product: string) =>
  (uid: string, lines: string[] = [], components: string[] = []) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      `PRODID:-//${product}//EN`,
      'BEGIN:VTODO',
      `UID:${uid}`,
      'DTSTAMP:20260310T120000Z',
      ...lines,
      ...components,
      'END:VTODO',
      'END:VCALENDAR',
      '',
    ].join('\r\n');

/** A calendar object with one VTODO holding `lines`. */
export const davVtodo = vtodoFrom('Sweep');

export const davXml = {
  propfind: `<d:propfind ${NS}><d:prop><d:displayname/><d:getetag/><c:calendar-data/><d:sync-token/></d:prop></d:propfind>`,
  allprop: `<d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>`,
  query: `<c:calendar-query ${NS}><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:time-range start="20260101T000000Z" end="20270101T000000Z"/><c:prop-filter name="SUMMARY"><c:text-match>a</c:text-match></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
  multiget: (hrefs: string[]) =>
    `<c:calendar-multiget ${NS}><d:prop><d:getetag/><c:calendar-data/></d:prop>${hrefs.map((h) => `<d:href>${h}</d:href>`).join('')}</c:calendar-multiget>`,
  sync: `<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
  mkcalendar: (name: string) =>
    `<c:mkcalendar ${NS}><d:set><d:prop><d:displayname>${name}</d:displayname></d:prop></d:set></c:mkcalendar>`,
  proppatch: (name: string) =>
    `<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>${name}</d:displayname></d:prop></d:set></d:propertyupdate>`,
};

/**
 * The bodies each method is sent with: every kind of request a calendar app makes. A method of
 * the /dav routes without an entry here fails the sweeps, so a method added later is swept too.
 */
export function davBodies(hrefs: string[]): Record<string, (string | undefined)[]> {
  return {
    GET: [undefined],
    HEAD: [undefined],
    OPTIONS: [undefined],
    DELETE: [undefined],
    PUT: [davVtodo(`sweep-${hrefs.length}`, ['SUMMARY:Sweep', 'DUE:20260310T120000Z'])],
    PROPFIND: [undefined, davXml.propfind, davXml.allprop],
    REPORT: [davXml.query, davXml.multiget(hrefs), davXml.sync],
    MKCALENDAR: [undefined, davXml.mkcalendar('Sweep')],
    MKCOL: [undefined],
    PROPPATCH: [davXml.proppatch('Sweep')],
  };
}

/**
 * Sends a CalDAV request. An app password takes 600 requests a minute: the clock moves on a
 * minute every 500, so a long sweep is never a 429 for that.
 */
export function davSender(app: FastifyInstance, clock: TestClock) {
  let sent = 0;
  return async (
    method: string,
    url: string,
    body: string | undefined,
    headers: Record<string, string>,
  ): Promise<LightMyRequestResponse> => {
    sent += 1;
    if (sent % 500 === 0) clock.advance(61_000);
    return app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(body === undefined
          ? {}
          : { 'content-type': method === 'PUT' ? 'text/calendar' : 'application/xml' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: body }),
    });
  };
}
