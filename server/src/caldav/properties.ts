import type { Element } from '@xmldom/xmldom';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../shared/errors.js';
import { boundXml, PROPS_REQUESTED_MAX, REPORT_XML_MARKUP_MAX } from './limits.js';
import type { Collection, DavUser, Resource } from './service.js';
import {
  childElements,
  dav,
  el,
  firstChild,
  nameKey,
  nameOf,
  NS,
  parseXml,
  type XmlName,
  type XmlNode,
} from './xml.js';

/**
 * The properties of each kind of resource (the root, a principal, the calendar home, a calendar,
 * a todo), what a PROPFIND or REPORT asks of them, and the <response> that answers it.
 */

export const SYNC_PREFIX = 'urn:tally:sync:';

export const enc = encodeURIComponent;

/** The properties a request asks for; each name with its key in a Props table. */
export type PropRequest =
  | { kind: 'allprop' }
  | { kind: 'propname' }
  | { kind: 'prop'; names: (XmlName & { key: string })[] };
type Prop<S> = [XmlName, (subject: S) => (XmlNode | string)[]];
/**
 * The properties of a kind of resource, each a function of the one a response describes (its
 * subject): only the requested ones are computed, and the table is made once, not per response
 * (a full sync answers 20,000 of them).
 */
export type Props<S> = Map<string, { name: XmlName; value: Prop<S>[1] }>;

function propsOf<S>(entries: Prop<S>[]): Props<S> {
  return new Map(entries.map(([name, value]) => [nameKey(name), { name, value }]));
}

const d = (name: string): XmlName => ({ ns: NS.dav, name });
const c = (name: string): XmlName => ({ ns: NS.caldav, name });

/** Reads which properties a PROPFIND or REPORT asks for. */
export function propRequestOf(root: Element | null): PropRequest {
  if (!root) return { kind: 'allprop' };
  if (firstChild(root, NS.dav, 'propname')) return { kind: 'propname' };
  const prop = firstChild(root, NS.dav, 'prop');
  if (!prop) return { kind: 'allprop' };
  const asked = childElements(prop);
  if (asked.length > PROPS_REQUESTED_MAX) {
    throw badRequest(`prop: a request asks for at most ${PROPS_REQUESTED_MAX} properties`);
  }
  return {
    kind: 'prop',
    names: asked.map((element) => {
      const name = nameOf(element);
      return { ...name, key: nameKey(name) };
    }),
  };
}

/** One <response> of a multistatus: the found properties, and the asked ones it lacks (404). */
export function responseOf<S>(
  href: string,
  props: Props<S>,
  subject: S,
  request: PropRequest,
): XmlNode {
  const found: XmlNode[] = [];
  const missing: XmlNode[] = [];
  if (request.kind === 'prop') {
    for (const { ns, name, key } of request.names) {
      const prop = props.get(key);
      if (prop) found.push({ ns, name, children: prop.value(subject) });
      else missing.push({ ns, name });
    }
  } else {
    for (const { name, value } of props.values()) {
      // calendar-data is the whole object: only when asked for by name (RFC 4791, 9.6).
      if (name.name === 'calendar-data') continue;
      found.push(request.kind === 'propname' ? { ...name } : { ...name, children: value(subject) });
    }
  }
  const children: XmlNode[] = [dav('href', href)];
  if (found.length || !missing.length) children.push(propstat(found, '200 OK'));
  if (missing.length) children.push(propstat(missing, '404 Not Found'));
  return { ns: NS.dav, name: 'response', children };
}

const propstat = (props: XmlNode[], status: string): XmlNode =>
  dav(
    'propstat',
    { ns: NS.dav, name: 'prop', children: props },
    dav('status', `HTTP/1.1 ${status}`),
  );

export const hrefs = (user: DavUser) => {
  const home = `/dav/calendars/${user.id}/`;
  return {
    principal: `/dav/principals/${user.id}/`,
    home,
    collection: (c: Collection) => `${home}${enc(c.segment)}/`,
    resource: (c: Collection, name: string) => `${home}${enc(c.segment)}/${enc(name)}`,
  };
};

/** What a response on the user's root, principal or calendar home is written from. */
export interface UserSubject {
  user: DavUser;
}
/** A calendar's, with its ctag and sync token, read before its response is written. */
export interface CalendarSubject extends UserSubject {
  collection: Collection;
  ctag: string;
  syncToken: number;
}

/** The properties every resource of a user answers: who the user is. */
const COMMON_PROPS: Prop<UserSubject>[] = [
  [d('current-user-principal'), ({ user }) => [dav('href', hrefs(user).principal)]],
  [d('owner'), ({ user }) => [dav('href', hrefs(user).principal)]],
];

const privileges = ({ user }: UserSubject) => [
  dav('privilege', dav('read')),
  ...(user.canWrite
    ? [dav('privilege', dav('write')), dav('privilege', dav('write-content'))]
    : []),
];

/** The server's root (/dav/ and /.well-known/caldav's target): where a client's discovery starts. */
export const ROOT_PROPS = propsOf<UserSubject>([
  ...COMMON_PROPS,
  [d('resourcetype'), () => [dav('collection')]],
  [c('calendar-home-set'), ({ user }) => [dav('href', hrefs(user).home)]],
]);

export const PRINCIPAL_PROPS = propsOf<UserSubject>([
  ...COMMON_PROPS,
  [d('resourcetype'), () => [dav('principal')]],
  [d('displayname'), ({ user }) => [user.username]],
  [d('principal-URL'), ({ user }) => [dav('href', hrefs(user).principal)]],
  [c('calendar-home-set'), ({ user }) => [dav('href', hrefs(user).home)]],
  [c('calendar-user-address-set'), ({ user }) => [dav('href', `mailto:${user.email}`)]],
]);

export const HOME_PROPS = propsOf<UserSubject>([
  ...COMMON_PROPS,
  [d('resourcetype'), () => [dav('collection')]],
  [d('displayname'), () => ['Tally']],
  [c('calendar-home-set'), ({ user }) => [dav('href', hrefs(user).home)]],
  [d('current-user-privilege-set'), privileges],
]);

export const CALENDAR_PROPS = propsOf<CalendarSubject>([
  ...COMMON_PROPS,
  [d('resourcetype'), () => [dav('collection'), el(NS.caldav, 'calendar')]],
  [d('displayname'), ({ collection }) => [collection.name]],
  [{ ns: NS.apple, name: 'calendar-color' }, ({ collection }) => [`${collection.color}FF`]],
  [
    c('supported-calendar-component-set'),
    () => [{ ns: NS.caldav, name: 'comp', attributes: { name: 'VTODO' } }],
  ],
  [
    c('supported-calendar-data'),
    () => [
      {
        ns: NS.caldav,
        name: 'calendar-data',
        attributes: { 'content-type': 'text/calendar', version: '2.0' },
      },
    ],
  ],
  [
    d('supported-report-set'),
    () =>
      [c('calendar-query'), c('calendar-multiget'), d('sync-collection')].map((report) =>
        dav('supported-report', dav('report', el(report.ns, report.name))),
      ),
  ],
  [{ ns: NS.cs, name: 'getctag' }, ({ ctag }) => [ctag]],
  [d('sync-token'), ({ syncToken }) => [`${SYNC_PREFIX}${syncToken}`]],
  [d('current-user-privilege-set'), privileges],
]);

/** The principal's properties a principal-property-search compares (caseless, as substrings). */
export const PRINCIPAL_SEARCH = new Map(
  [
    { name: d('displayname'), description: 'Name', values: (user: DavUser) => [user.username] },
    {
      name: c('calendar-user-address-set'),
      description: 'E-mail address',
      values: (user: DavUser) => [`mailto:${user.email}`],
    },
  ].map((search) => [nameKey(search.name), search]),
);

const RESOURCE_PROPS = propsOf<Resource>([
  [d('getetag'), (resource) => [resource.etag]],
  [d('getcontenttype'), () => ['text/calendar; charset=utf-8; component=VTODO']],
  [d('resourcetype'), () => []],
  [d('getcontentlength'), (resource) => [String(Buffer.byteLength(resource.data))]],
  [d('getlastmodified'), (resource) => [new Date(resource.updatedAt).toUTCString()]],
  [c('calendar-data'), (resource) => [resource.data]],
]);

/** The <response> of each todo of a user's calendar, its hrefs made once. */
export function resourceAnswer(user: DavUser, collection: Collection, wanted: PropRequest) {
  const h = hrefs(user);
  return (resource: Resource) =>
    responseOf(h.resource(collection, resource.name), RESOURCE_PROPS, resource, wanted);
}

/** The request's XML body, bounded before it is parsed; null without one. */
export function bodyXml(request: FastifyRequest): Element | null {
  const body = typeof request.body === 'string' ? request.body.trim() : '';
  // A REPORT may name a calendar's every object (caldav/limits.ts, MULTIGET_HREFS_MAX).
  if (body) boundXml(body, request.method === 'REPORT' ? REPORT_XML_MARKUP_MAX : undefined);
  return body ? parseXml(body) : null;
}
