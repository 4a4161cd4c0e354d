import { tokensApi } from '@tally/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { apiClient } from './api-client.js';
import type { TestClock, TestUser } from './helpers.js';
import type { RouteEntry } from './security.js';

/**
 * CalDAV for the route-table sweeps (security/access, fuzz and payloads tests): a user's Basic
 * credentials and, for each method the /dav routes take, the bodies a calendar app sends with it.
 */

export interface DavCredentials {
  basic: string;
  home: string;
}

/** An app password (a read-write API token) for the user, as Basic credentials. */
export async function davCredentials(
  app: FastifyInstance,
  user: TestUser,
): Promise<DavCredentials> {
  const made = await apiClient(app, user)(tokensApi.create, {
    body: { name: 'Sweep', scope: 'read-write', expiresInDays: null },
  });
  const { token } = made.json<{ token: string }>();
  return {
    basic: `Basic ${Buffer.from(`${user.email}:${token}`).toString('base64')}`,
    home: `/dav/calendars/${user.id}/`,
  };
}

/** The /dav routes' methods, as Fastify registered them (HEAD too, when it exposes GET's). */
export const davMethods = (entries: RouteEntry[]) => [
  ...new Set(entries.filter((e) => e.url.startsWith('/dav')).map((e) => e.method)),
];

const NS = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"';

/** A calendar object with one VTODO holding `lines`. */
export const davVtodo = (uid: string, lines: string[] = []) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sweep//EN',
    'BEGIN:VTODO',
    `UID:${uid}`,
    'DTSTAMP:20260310T120000Z',
    ...lines,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

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
