import { Readable } from 'node:stream';
import type { Element } from '@xmldom/xmldom';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type ICAL from 'ical.js';
import { createLoginLimits } from '../auth/login-limits.js';
import type { Clock } from '../shared/clock.js';
import { batches } from '../shared/batches.js';
import { AppError, badRequest, notFound } from '../shared/errors.js';
import { periodicJob, runInBackground } from '../shared/periodic-job.js';
import { timeSlicer } from '../shared/time-slices.js';
import {
  type Collection,
  createCaldavService,
  type DavUser,
  RESOURCES_PER_PAGE,
  type Resource,
} from './service.js';
import {
  boundXml,
  CALDAV_REQUESTS_PER_WINDOW,
  CALDAV_WINDOW_MS,
  DAV_BODY_LIMIT_BYTES,
  DAV_REPORT_BODY_LIMIT_BYTES,
  MULTIGET_HREFS_MAX,
  OCCURRENCES_CHECKED_MAX,
  PROPS_REQUESTED_MAX,
  REPORT_XML_MARKUP_MAX,
} from './limits.js';
import { ical, loadIcal } from './vtodo.js';
import {
  buildXml,
  childElements,
  dav,
  DavPrecondition,
  el,
  firstChild,
  isElement,
  loadXmldom,
  nameKey,
  nameOf,
  NS,
  parseXml,
  textOf,
  type XmlName,
  type XmlNode,
  xmlChunks,
} from './xml.js';

/**
 * CalDAV (RFC 4791, 6578, 6764, 5397) for calendar and task apps: docs/decisions/085-caldav.md
 * has the tree, the storage and the authentication; docs/product.md the mapping. Outside /api
 * (its answers are XML and iCalendar, not the contract's JSON), so the session authentication
 * hook passes these routes (`public`) and they check HTTP Basic themselves.
 */

const DAV_METHODS = ['PROPFIND', 'PROPPATCH', 'REPORT', 'MKCALENDAR', 'MKCOL'] as const;
const WRITE_METHODS = new Set(['PUT', 'DELETE', 'PROPPATCH', 'MKCALENDAR', 'MKCOL']);
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR';
const MINUTE = 60_000;
/** The change log is pruned once a day across all processes; each process looks every hour. */
const PRUNE_EVERY_MS = 24 * 60 * MINUTE;
const PRUNE_CHECK_MS = 60 * MINUTE;
const SYNC_PREFIX = 'urn:tally:sync:';
/** CalDAV's calls are XML and iCalendar, described by their RFCs, not OpenAPI (decision 085). */
const NOT_IN_OPENAPI = { hide: true };
const CHALLENGE = { 'www-authenticate': 'Basic realm="Tally CalDAV", charset="UTF-8"' };

/** The properties a request asks for; each name with its key in a Props table. */
type PropRequest =
  | { kind: 'allprop' }
  | { kind: 'propname' }
  | { kind: 'prop'; names: (XmlName & { key: string })[] };
type Prop<S> = [XmlName, (subject: S) => (XmlNode | string)[]];
/**
 * The properties of a kind of resource, each a function of the one a response describes (its
 * subject): only the requested ones are computed, and the table is made once, not per response
 * (a full sync answers 20,000 of them).
 */
type Props<S> = Map<string, { name: XmlName; value: Prop<S>[1] }>;

const enc = encodeURIComponent;

function propsOf<S>(entries: Prop<S>[]): Props<S> {
  return new Map(entries.map(([name, value]) => [nameKey(name), { name, value }]));
}

const d = (name: string): XmlName => ({ ns: NS.dav, name });
const c = (name: string): XmlName => ({ ns: NS.caldav, name });

/** Reads which properties a PROPFIND or REPORT asks for. */
function propRequestOf(root: Element | null): PropRequest {
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
function responseOf<S>(href: string, props: Props<S>, subject: S, request: PropRequest): XmlNode {
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

/** A <response> per item, each made when it is written and then dropped. */
function* each<T>(items: Iterable<T>, answer: (item: T) => XmlNode): Generator<XmlNode> {
  for (const item of items) yield answer(item);
}

/**
 * A <response> per item of pages read one after the other (caldav/service.ts, memberPages), each
 * page answered before the next is read; an item answered null (a calendar-query's object that
 * does not match) is left out.
 */
async function* eachOfPages<T>(
  pages: AsyncIterable<readonly T[]>,
  answer: (item: T) => XmlNode | null,
): AsyncGenerator<XmlNode> {
  // Items left out give the event loop its turns too (concat gives them after responses): a
  // filter's test of one object, a repeating todo's occurrences, takes up to milliseconds.
  const slice = timeSlicer();
  for await (const page of pages) {
    for (const item of page) {
      const response = answer(item);
      if (response) yield response;
      else await slice();
    }
  }
}

type Responses = Iterable<XmlNode> | AsyncIterable<XmlNode>;

/**
 * The groups' responses in order, giving the event loop a turn every 10 ms of work between
 * them: writing one object and matching it against a filter takes up to a few milliseconds
 * (caldav/limits.ts bounds its size), and without turns a full sync on SQLite, whose reads do
 * not wait, would hold every other request until it is written whole.
 */
async function* concat(groups: Responses[]): AsyncGenerator<XmlNode> {
  const slice = timeSlicer();
  for (const group of groups) {
    for await (const response of group) {
      yield response;
      await slice();
    }
  }
}

/** The pieces already taken from `rest`, then the others. */
async function* resume(taken: string[], rest: AsyncIterator<string>): AsyncGenerator<string> {
  yield* taken;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/**
 * A 207 multistatus of the groups' responses (and a sync-token), in order. An answer of one
 * piece (xml.ts, xmlChunks: under 16 KB) is sent whole with its length, as before; a longer one
 * is streamed (chunked), written while its pages are read, so a full sync's answer is never in
 * memory whole (docs/performance.md, CalDAV). A database error once the first pieces are sent
 * can only cut the answer short: the client sees an incomplete body and asks again.
 */
async function multistatus(reply: FastifyReply, ...groups: Responses[]) {
  const chunks = xmlChunks(dav('multistatus'), concat(groups));
  const taken: string[] = [];
  while (taken.length < 2) {
    const next = await chunks.next();
    if (next.done) break;
    taken.push(next.value);
  }
  reply.code(207).header('content-type', 'application/xml; charset=utf-8');
  if (taken.length < 2) return reply.send(taken.join(''));
  return reply.send(Readable.from(resume(taken, chunks)));
}

/** A DAV precondition failure: the status and an <error> naming the condition. */
const davError = (reply: FastifyReply, status: number, condition: XmlNode) =>
  reply
    .code(status)
    .header('content-type', 'application/xml; charset=utf-8')
    .send(buildXml(dav('error', condition)));

/**
 * The path below /dav as decoded segments. `what` names the URL in a refusal: the request's, or
 * a multiget's href. No segment holds a NUL: no name Tally keeps can (PostgreSQL refuses it).
 */
function segmentsOf(url: string, what = 'The request URL'): string[] {
  let segments: string[];
  try {
    segments = new URL(url, 'http://tally.invalid').pathname
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part))
      .slice(1);
  } catch {
    throw badRequest(`${what} is malformed (not a URL, or bad percent-encoding)`);
  }
  if (segments.some((segment) => segment.includes('\u0000'))) {
    throw badRequest(`${what} must not contain NUL characters`);
  }
  return segments;
}

/** The basic-format UTC time of a time-range attribute, as epoch ms. */
function rangeTime(value: string | null, fallback: number): number {
  if (!value) return fallback;
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) throw badRequest('time-range: start and end must be UTC times like 20260310T000000Z');
  const [, y, mo, da, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y ?? 0, (mo ?? 1) - 1, da ?? 1, h ?? 0, mi ?? 0, s ?? 0);
}

/**
 * A property's values, or none when they cannot be read as their type: an object stored before
 * PUT refused such values (caldav/vtodo.ts, checkComponents) then fails the filter, instead of
 * failing every query of its calendar.
 */
function valuesOf(property: ICAL.Property | null): unknown[] {
  try {
    return property?.getValues() ?? [];
  } catch {
    return [];
  }
}

const timeOf = (component: ICAL.Component, name: string): number | null => {
  const [value] = valuesOf(component.getFirstProperty(name));
  return value instanceof ical().Time ? value.toUnixTime() * 1000 : null;
};

/** RFC 4791, 9.9: whether a VTODO of these DTSTART and DUE falls in a time range. */
function datesInRange(dtstart: number | null, due: number | null, start: number, end: number) {
  if (dtstart !== null && due !== null) {
    return (start <= dtstart || start < due) && (end > dtstart || end >= due);
  }
  if (dtstart !== null) return start <= dtstart && end > dtstart;
  if (due !== null) return start < due && end >= due;
  return null;
}

const DAY_MS = 86_400_000;
/** The length of a rule's FREQ, for the frequencies whose occurrences repeat every period. */
const PERIOD_MS: Record<string, number> = {
  SECONDLY: 1000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: DAY_MS,
  WEEKLY: 7 * DAY_MS,
};
/** Months of a rule's FREQ counted in months; a period's ms only estimates how many fit. */
const PERIOD_MONTHS: Record<string, number> = { MONTHLY: 1, YEARLY: 12 };
const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * Where a repeating todo's occurrences can be expanded from to reach `before` (epoch ms): its
 * first date moved on by whole periods of its rule, to one before it, so a daily todo years
 * before the range costs no more to test than one starting at it. Only where the moved date is
 * an occurrence of the rule: no COUNT (it counts from the first date), no BY part but the date's
 * own weekday, and for a monthly or yearly rule a day of the month every month has. Otherwise the
 * first date, and the expansion walks from it up to OCCURRENCES_CHECKED_MAX steps.
 */
function startNear(component: ICAL.Component, base: ICAL.Time, before: number): ICAL.Time {
  const [rule] = valuesOf(component.getFirstProperty('rrule'));
  if (!(rule instanceof ical().Recur) || rule.count || !rule.freq) return base;
  const parts: [string, unknown][] = Object.entries(rule.parts ?? {});
  const ownWeekday = WEEKDAY_CODES[base.dayOfWeek() - 1];
  const onItsOwnDay = parts.every(
    ([part, values]) =>
      part === 'BYDAY' && Array.isArray(values) && values.some((day) => day === ownWeekday),
  );
  const interval = rule.interval || 1;
  const months = PERIOD_MONTHS[rule.freq];
  if (!onItsOwnDay) return base;
  if (months !== undefined) {
    if (parts.length > 0 || base.day > 28) return base;
    // Whole periods of months on the calendar, to the month before `before`'s (a zone's offset
    // cannot carry the moved date past it).
    const from = base.year * 12 + base.month - 1;
    const until = new Date(before).getUTCFullYear() * 12 + new Date(before).getUTCMonth() - 1;
    const steps = Math.floor((until - from) / (interval * months));
    if (!(steps > 0)) return base;
    const moved = base.clone();
    const month = from + steps * interval * months;
    moved.year = Math.floor(month / 12);
    moved.month = (month % 12) + 1;
    return moved;
  }
  const unitMs = PERIOD_MS[rule.freq];
  if (unitMs === undefined) return base;
  // One period less than fits: a zone's daylight saving shift does not carry it past `before`.
  const periods = Math.floor((before - base.toUnixTime() * 1000) / (unitMs * interval)) - 1;
  if (periods <= 0) return base;
  const moved = base.clone();
  // Days in the date's own zone (its wall-clock time stays), shorter periods in seconds.
  if (unitMs >= DAY_MS) moved.adjust((periods * interval * unitMs) / DAY_MS, 0, 0, 0);
  else moved.adjust(0, 0, 0, (periods * interval * unitMs) / 1000);
  return moved;
}

/**
 * RFC 4791, 9.9: whether a VTODO falls in a time range (without DURATION, which Tally lacks),
 * a repeating one by any of its occurrences: each moves DTSTART and DUE together, as a repeat's
 * advance does, from the first of them (DTSTART, else DUE), which the rule starts from.
 */
function todoInRange(component: ICAL.Component, start: number, end: number): boolean {
  const dtstart = timeOf(component, 'dtstart');
  const due = timeOf(component, 'due');
  const first = datesInRange(dtstart, due, start, end);
  if (first === null) {
    const completed = timeOf(component, 'completed');
    const created = timeOf(component, 'created');
    if (completed !== null) return start <= completed && end >= (created ?? completed);
    return true;
  }
  if (first) return true;
  const repeats = component.hasProperty('rrule') || component.hasProperty('rdate');
  const [base] = valuesOf(component.getFirstProperty(dtstart === null ? 'due' : 'dtstart'));
  if (!repeats || !(base instanceof ical().Time)) return false;
  const baseAt = base.toUnixTime() * 1000;
  const earliest = Math.min(dtstart ?? Infinity, due ?? Infinity);
  // An occurrence reaches the range when its first date is no earlier than this.
  const reaching = start - (Math.max(dtstart ?? -Infinity, due ?? -Infinity) - earliest);
  try {
    const occurrences = new (ical().RecurExpansion)({
      component,
      dtstart: startNear(component, base, reaching),
    });
    for (let step = 0; step < OCCURRENCES_CHECKED_MAX; step += 1) {
      const next = occurrences.next();
      if (!next) return false;
      const shift = next.toUnixTime() * 1000 - baseAt;
      // Occurrences come in order: once one starts after the range, none later is in it.
      if (earliest + shift > end) return false;
      const moved = (at: number | null) => (at === null ? null : at + shift);
      if (datesInRange(moved(dtstart), moved(due), start, end)) return true;
    }
  } catch {
    // A rule ical.js cannot expand (stored before PUT checked it): its first dates only.
  }
  return false;
}

function propMatches(filter: Element, component: ICAL.Component): boolean {
  const properties = component.getAllProperties((filter.getAttribute('name') ?? '').toLowerCase());
  if (firstChild(filter, NS.caldav, 'is-not-defined')) return properties.length === 0;
  if (properties.length === 0) return false;
  return properties.some((property) =>
    childElements(filter).every((test) => {
      if (isElement(test, NS.caldav, 'text-match')) {
        const wanted = textOf(test).toLowerCase();
        const hit = valuesOf(property).some((value) =>
          String(value).toLowerCase().includes(wanted),
        );
        return test.getAttribute('negate-condition') === 'yes' ? !hit : hit;
      }
      if (isElement(test, NS.caldav, 'time-range')) {
        const [value] = valuesOf(property);
        if (!(value instanceof ical().Time)) return false;
        const at = value.toUnixTime() * 1000;
        return (
          at >= rangeTime(test.getAttribute('start'), -Infinity) &&
          at < rangeTime(test.getAttribute('end'), Infinity)
        );
      }
      return true;
    }),
  );
}

/** A comp-filter against the components of that name among `components`. */
function compMatches(filter: Element, components: ICAL.Component[]): boolean {
  const name = (filter.getAttribute('name') ?? '').toLowerCase();
  const candidates = components.filter((component) => component.name === name);
  if (firstChild(filter, NS.caldav, 'is-not-defined')) return candidates.length === 0;
  return candidates.some((component) =>
    childElements(filter).every((test) => {
      if (isElement(test, NS.caldav, 'time-range')) {
        return todoInRange(
          component,
          rangeTime(test.getAttribute('start'), -Infinity),
          rangeTime(test.getAttribute('end'), Infinity),
        );
      }
      if (isElement(test, NS.caldav, 'comp-filter')) {
        return compMatches(test, component.getAllSubcomponents());
      }
      if (isElement(test, NS.caldav, 'prop-filter')) return propMatches(test, component);
      return true;
    }),
  );
}

const hrefs = (user: DavUser) => {
  const home = `/dav/calendars/${user.id}/`;
  return {
    principal: `/dav/principals/${user.id}/`,
    home,
    collection: (c: Collection) => `${home}${enc(c.segment)}/`,
    resource: (c: Collection, name: string) => `${home}${enc(c.segment)}/${enc(name)}`,
  };
};

/** What a response on the user's root, principal or calendar home is written from. */
interface UserSubject {
  user: DavUser;
}
/** A calendar's, with its ctag and sync token, read before its response is written. */
interface CalendarSubject extends UserSubject {
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
const ROOT_PROPS = propsOf<UserSubject>([
  ...COMMON_PROPS,
  [d('resourcetype'), () => [dav('collection')]],
  [c('calendar-home-set'), ({ user }) => [dav('href', hrefs(user).home)]],
]);

const PRINCIPAL_PROPS = propsOf<UserSubject>([
  ...COMMON_PROPS,
  [d('resourcetype'), () => [dav('principal')]],
  [d('displayname'), ({ user }) => [user.username]],
  [d('principal-URL'), ({ user }) => [dav('href', hrefs(user).principal)]],
  [c('calendar-home-set'), ({ user }) => [dav('href', hrefs(user).home)]],
  [c('calendar-user-address-set'), ({ user }) => [dav('href', `mailto:${user.email}`)]],
]);

const HOME_PROPS = propsOf<UserSubject>([
  ...COMMON_PROPS,
  [d('resourcetype'), () => [dav('collection')]],
  [d('displayname'), () => ['Tally']],
  [c('calendar-home-set'), ({ user }) => [dav('href', hrefs(user).home)]],
  [d('current-user-privilege-set'), privileges],
]);

const CALENDAR_PROPS = propsOf<CalendarSubject>([
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
const PRINCIPAL_SEARCH = new Map(
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
function resourceAnswer(user: DavUser, collection: Collection, wanted: PropRequest) {
  const h = hrefs(user);
  return (resource: Resource) =>
    responseOf(h.resource(collection, resource.name), RESOURCE_PROPS, resource, wanted);
}

export const caldavRoutes: FastifyPluginAsync<{
  clock: Clock;
  loginAttemptsPerAccount: number;
  /** Prune the change log in the background (the server does; tests call it). */
  prune: boolean;
}> = async (app, { clock, loginAttemptsPerAccount, prune }) => {
  const caldav = createCaldavService(app.db, clock);
  if (prune) {
    const job = periodicJob({
      db: app.db,
      clock,
      name: 'caldav-changes-prune',
      everyMs: PRUNE_EVERY_MS,
      leaseMs: 10 * MINUTE,
      run: async () => {
        const pruned = await caldav.pruneChanges();
        app.log.info({ pruned }, 'CalDAV change log: deleted changes older than the kept history');
      },
    });
    runInBackground(app, job, PRUNE_CHECK_MS, 'CalDAV change log pruning');
  }
  const limits = createLoginLimits(app.counters, loginAttemptsPerAccount);
  for (const method of DAV_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  // Every body here is text (XML or iCalendar), whatever type a client names, or none.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  async function authenticate(request: FastifyRequest): Promise<DavUser> {
    const header = request.headers.authorization ?? '';
    const [scheme, encoded] = header.split(' ');
    if (scheme?.toLowerCase() !== 'basic' || !encoded) {
      throw new AppError(
        401,
        'Sign in with your e-mail and an app password (an API token)',
        CHALLENGE,
      );
    }
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const username = colon < 0 ? decoded : decoded.slice(0, colon);
    const user = colon < 0 ? null : await caldav.authenticate(username, decoded.slice(colon + 1));
    if (!user) {
      // Counted like a failed login (auth/login-limits.ts): past the limit, a 429. The address
      // first, so a flood of made-up names from one address writes no counter for each name.
      await limits.admitAddress(request.ip);
      await limits.admit(username, request.ip, false);
      throw new AppError(
        401,
        'The e-mail or app password is wrong (use an API token, never the account password)',
        CHALLENGE,
      );
    }
    // A budget of its own, sized for a first sync (caldav/limits.ts), not the API's per minute:
    // a sync is many small requests in a row (docs/decisions/124-caldav-request-budget.md).
    const used = await app.counters.hit(`caldav-token:${user.tokenId}`, CALDAV_WINDOW_MS);
    if (used.count > CALDAV_REQUESTS_PER_WINDOW) {
      const seconds = Math.max(1, Math.ceil(used.ttlMs / 1000));
      throw new AppError(
        429,
        `Too many requests with this app password - try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
        { 'retry-after': String(seconds) },
      );
    }
    if (WRITE_METHODS.has(request.method) && !user.canWrite) {
      throw new AppError(403, 'This app password is a read-only API token: it cannot make changes');
    }
    return user;
  }

  /** A calendar's <response>, with its ctag and sync token read first. */
  async function calendarResponse(user: DavUser, collection: Collection, wanted: PropRequest) {
    const [ctag, syncToken] = await Promise.all([
      caldav.ctag(user.id, collection),
      caldav.syncToken(user.id),
    ]);
    const subject = { user, collection, ctag, syncToken };
    return responseOf(hrefs(user).collection(collection), CALENDAR_PROPS, subject, wanted);
  }

  const bodyXml = (request: FastifyRequest) => {
    const body = typeof request.body === 'string' ? request.body.trim() : '';
    // A REPORT may name a calendar's every object (caldav/limits.ts, MULTIGET_HREFS_MAX).
    if (body) boundXml(body, request.method === 'REPORT' ? REPORT_XML_MARKUP_MAX : undefined);
    return body ? parseXml(body) : null;
  };

  /** PROPFIND (depth 0 or 1; "infinity" is answered as 1). */
  async function propfind(
    request: FastifyRequest,
    reply: FastifyReply,
    user: DavUser,
    path: string[],
  ) {
    const root = bodyXml(request);
    if (root && !isElement(root, NS.dav, 'propfind'))
      throw badRequest('body: expected a DAV:propfind');
    const wanted = propRequestOf(root);
    const deep = request.headers.depth !== '0';
    const h = hrefs(user);
    const responses: XmlNode[] = [];
    const [kind, owner, segment, name] = path;
    if (kind === undefined) {
      responses.push(
        responseOf(
          new URL(request.url, 'http://tally.invalid').pathname,
          ROOT_PROPS,
          { user },
          wanted,
        ),
      );
      if (deep) responses.push(responseOf(h.principal, PRINCIPAL_PROPS, { user }, wanted));
      return multistatus(reply, responses);
    }
    if (owner !== String(user.id)) throw notFound();
    if (kind === 'principals' && segment === undefined) {
      return multistatus(reply, [responseOf(h.principal, PRINCIPAL_PROPS, { user }, wanted)]);
    }
    if (kind !== 'calendars') throw notFound();
    if (segment === undefined) {
      responses.push(responseOf(h.home, HOME_PROPS, { user }, wanted));
      if (deep) {
        for (const collection of await caldav.collections(user.id)) {
          responses.push(await calendarResponse(user, collection, wanted));
        }
      }
      return multistatus(reply, responses);
    }
    const collection = await caldav.collection(user.id, segment);
    if (!collection) throw notFound('Calendar');
    if (name === undefined) {
      responses.push(await calendarResponse(user, collection, wanted));
      if (!deep) return multistatus(reply, responses);
      return multistatus(
        reply,
        responses,
        eachOfPages(
          caldav.memberPages(user.id, collection.groupId),
          resourceAnswer(user, collection, wanted),
        ),
      );
    }
    const resource = await caldav.resource(user.id, collection.groupId, name);
    if (!resource) throw notFound('Todo');
    return multistatus(reply, [resourceAnswer(user, collection, wanted)(resource)]);
  }

  /** REPORT on a calendar: calendar-query, calendar-multiget or sync-collection. */
  async function report(
    request: FastifyRequest,
    reply: FastifyReply,
    user: DavUser,
    collection: Collection,
  ) {
    const root = bodyXml(request);
    if (!root) throw badRequest('body: a REPORT needs a body');
    const wanted = propRequestOf(root);
    const h = hrefs(user);
    const answer = resourceAnswer(user, collection, wanted);
    if (isElement(root, NS.caldav, 'calendar-multiget')) {
      const base = h.collection(collection);
      const asked = childElements(root)
        .filter((child) => isElement(child, NS.dav, 'href'))
        .map((href) => textOf(href));
      if (asked.length > MULTIGET_HREFS_MAX) {
        throw badRequest(
          `href: a calendar-multiget names at most ${MULTIGET_HREFS_MAX.toLocaleString('en')} hrefs`,
        );
      }
      const byHref = new Map<string, string>();
      for (const href of asked) {
        const segments = segmentsOf(href, 'href');
        const name = segments[3];
        const inCollection = `/dav/${segments.slice(0, 3).map(enc).join('/')}/` === base;
        if (name !== undefined && inCollection && segments.length === 4) byHref.set(href, name);
      }
      // The objects are read a page of hrefs at a time, each page answered before the next.
      async function* pages() {
        const named = caldav.namedPages(
          user.id,
          collection.groupId,
          batches(asked, RESOURCES_PER_PAGE),
          (page) => page.flatMap((href) => byHref.get(href) ?? []),
        );
        for await (const { page, found } of named) {
          yield page.map((href) => ({ href, resource: found.get(byHref.get(href) ?? '') }));
        }
      }
      return multistatus(
        reply,
        eachOfPages(pages(), ({ href, resource }) =>
          resource
            ? answer(resource)
            : dav('response', dav('href', href), dav('status', 'HTTP/1.1 404 Not Found')),
        ),
      );
    }
    if (isElement(root, NS.caldav, 'calendar-query')) {
      const filter = firstChild(root, NS.caldav, 'filter');
      const top = filter ? firstChild(filter, NS.caldav, 'comp-filter') : undefined;
      return multistatus(
        reply,
        eachOfPages(caldav.memberPages(user.id, collection.groupId), (resource) =>
          !top || compMatches(top, [resource.component]) ? answer(resource) : null,
        ),
      );
    }
    if (isElement(root, NS.dav, 'sync-collection')) {
      const tokenElement = firstChild(root, NS.dav, 'sync-token');
      const given = tokenElement ? textOf(tokenElement) : '';
      const { current, oldest } = await caldav.syncTokens(user.id);
      const tokenNode = dav('sync-token', `${SYNC_PREFIX}${current}`);
      if (!given) {
        return multistatus(
          reply,
          eachOfPages(caldav.memberPages(user.id, collection.groupId), answer),
          [tokenNode],
        );
      }
      const number = given.startsWith(SYNC_PREFIX) ? Number(given.slice(SYNC_PREFIX.length)) : NaN;
      // A token never given out, or one older than the kept change log (decision 092): the
      // client syncs afresh without a token (RFC 6578, 3.2).
      if (!Number.isInteger(number) || number < oldest || number > current) {
        return davError(reply, 403, dav('valid-sync-token'));
      }
      const { changed, removed } = await caldav.changesSince(user.id, collection.groupId, number);
      return multistatus(
        reply,
        each(changed, answer),
        each(removed, (name) =>
          dav(
            'response',
            dav('href', h.resource(collection, name)),
            dav('status', 'HTTP/1.1 404 Not Found'),
          ),
        ),
        [tokenNode],
      );
    }
    return davError(reply, 403, dav('supported-report'));
  }

  /**
   * REPORT on the root, the principal or the calendar home (RFC 3744, 9.4 and 9.5): apps look
   * for calendar users there (python-caldav's principals(), Apple's sharing sheet). A user sees
   * only their own principal: it is answered when the search matches it, else none is.
   */
  function principalReport(request: FastifyRequest, reply: FastifyReply, user: DavUser) {
    const root = bodyXml(request);
    if (!root) throw badRequest('body: a REPORT needs a body');
    if (isElement(root, NS.dav, 'principal-search-property-set')) {
      const searchable = [...PRINCIPAL_SEARCH.values()].map(({ name, description }) =>
        dav('principal-search-property', dav('prop', el(name.ns, name.name)), {
          ns: NS.dav,
          name: 'description',
          attributes: { 'xml:lang': 'en' },
          children: [description],
        }),
      );
      return reply
        .code(200)
        .header('content-type', 'application/xml; charset=utf-8')
        .send(buildXml(dav('principal-search-property-set', ...searchable)));
    }
    if (!isElement(root, NS.dav, 'principal-property-search')) {
      return davError(reply, 403, dav('supported-report'));
    }
    const matches = childElements(root)
      .filter((child) => isElement(child, NS.dav, 'property-search'))
      .map((search) => {
        const prop = firstChild(search, NS.dav, 'prop');
        const match = firstChild(search, NS.dav, 'match');
        const wanted = match ? textOf(match).toLowerCase() : '';
        return (prop ? childElements(prop) : []).some((property) =>
          (PRINCIPAL_SEARCH.get(nameKey(nameOf(property)))?.values(user) ?? []).some((value) =>
            value.toLowerCase().includes(wanted),
          ),
        );
      });
    const found =
      matches.length > 0 &&
      (root.getAttribute('test') === 'anyof' ? matches.some(Boolean) : matches.every(Boolean));
    const principal = responseOf(
      hrefs(user).principal,
      PRINCIPAL_PROPS,
      { user },
      propRequestOf(root),
    );
    return multistatus(reply, found ? [principal] : []);
  }

  /** The displayname and calendar-color a MKCALENDAR or PROPPATCH sets; the others it names. */
  function calendarSettings(root: Element | null) {
    const settings = {
      name: null as string | null,
      color: null as string | null,
      /** A calendar for events or journals only: Tally's calendars hold VTODOs. */
      withoutTodos: false,
    };
    const others: XmlName[] = [];
    const known: XmlName[] = [];
    for (const action of root ? childElements(root) : []) {
      const prop = firstChild(action, NS.dav, 'prop');
      for (const property of prop ? childElements(prop) : []) {
        const name = nameOf(property);
        const removing = isElement(action, NS.dav, 'remove');
        if (!removing && isElement(property, NS.dav, 'displayname')) {
          settings.name = textOf(property);
          known.push(name);
        } else if (!removing && isElement(property, NS.apple, 'calendar-color')) {
          settings.color = textOf(property);
          known.push(name);
        } else if (isElement(property, NS.caldav, 'supported-calendar-component-set')) {
          const comps = childElements(property).map((comp) => comp.getAttribute('name'));
          if (comps.some((comp) => comp?.toUpperCase() === 'VTODO')) known.push(name);
          else {
            others.push(name);
            settings.withoutTodos = true;
          }
        } else {
          others.push(name);
        }
      }
    }
    return { settings, known, others };
  }

  /** Every CalDAV request: a DAV precondition it fails is answered as an <error> naming it. */
  async function handle(request: FastifyRequest, reply: FastifyReply) {
    try {
      return await answer(request, reply);
    } catch (error) {
      if (error instanceof DavPrecondition)
        return davError(reply, error.statusCode, error.condition);
      throw error;
    }
  }

  async function answer(request: FastifyRequest, reply: FastifyReply) {
    if (request.method === 'OPTIONS') {
      return reply
        .code(200)
        .header('dav', '1, 3, calendar-access, extended-mkcol')
        .header('allow', ALLOW)
        .send();
    }
    const user = await authenticate(request);
    // Loaded at the first signed-in CalDAV request, not at start (decision 097): every function
    // below may then read XML and iCalendar synchronously.
    await Promise.all([loadXmldom(), loadIcal()]);
    const path = segmentsOf(request.url);
    // Fastify answers HEAD with the GET route's handler, leaving the body out.
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (request.method === 'PROPFIND') return propfind(request, reply, user, path);
    const [kind, owner, segment, name] = path;
    if (kind !== 'calendars' || owner !== String(user.id) || segment === undefined) {
      if (reading && kind === undefined) {
        return reply
          .type('text/plain; charset=utf-8')
          .send('Tally CalDAV server: add this address to a CalDAV app.');
      }
      // Only the root, the user's principal and calendar home are here to refuse the method;
      // another user's tree and any other path are not (as PROPFIND answers them).
      const own =
        kind === undefined ||
        ((kind === 'principals' || kind === 'calendars') &&
          owner === String(user.id) &&
          segment === undefined);
      if (!own) throw notFound();
      if (request.method === 'REPORT') return principalReport(request, reply, user);
      throw new AppError(405, `${request.method} is not allowed here`, {
        allow: 'OPTIONS, PROPFIND, REPORT',
      });
    }
    if (path.length > 4) throw notFound();
    const collection = await caldav.collection(user.id, segment);
    if (request.method === 'MKCALENDAR' || request.method === 'MKCOL') {
      if (name !== undefined) throw new AppError(405, 'Calendars are made in the calendar home');
      if (collection) return davError(reply, 405, dav('resource-must-be-null'));
      // Presentation properties apps set on a new calendar (calendar-order, a description, a
      // time zone) are not kept: the group is made with its name and colour.
      const { settings } = calendarSettings(bodyXml(request));
      if (settings.withoutTodos) {
        return davError(reply, 403, el(NS.caldav, 'supported-calendar-component'));
      }
      const group = await caldav.makeCalendar(user.id, segment, settings);
      app.live.publish(user.id, { type: 'group.created', id: group.id });
      return reply
        .code(201)
        .header('location', hrefs(user).home + enc(segment) + '/')
        .send();
    }
    if (!collection) throw notFound('Calendar');
    const h = hrefs(user);
    if (name === undefined) {
      if (request.method === 'REPORT') return report(request, reply, user, collection);
      if (request.method === 'PROPPATCH') {
        const { settings, known, others } = calendarSettings(bodyXml(request));
        const propstat = (names: XmlName[], status: string) =>
          dav(
            'propstat',
            dav('prop', ...names.map((n) => el(n.ns, n.name))),
            dav('status', `HTTP/1.1 ${status}`),
          );
        // All or nothing (RFC 4918, 9.2): a property Tally cannot keep fails the others too.
        const answer = others.length
          ? [
              propstat(others, '403 Forbidden'),
              ...(known.length ? [propstat(known, '424 Failed Dependency')] : []),
            ]
          : [propstat(known, '200 OK')];
        if (!others.length && (settings.name !== null || settings.color !== null)) {
          const group = await caldav.patchCalendar(user.id, collection, settings);
          if (group) app.live.publish(user.id, { type: 'group.updated', id: group.id });
        }
        return multistatus(reply, [
          dav('response', dav('href', h.collection(collection)), ...answer),
        ]);
      }
      if (request.method === 'DELETE') {
        const groupId = collection.groupId;
        await caldav.removeCalendar(user.id, collection);
        if (groupId !== null) app.live.publish(user.id, { type: 'group.deleted', id: groupId });
        app.live.publish(user.id, { type: 'todos.changed' });
        return reply.code(204).send();
      }
      throw new AppError(405, `${request.method} is not allowed on a calendar`, { allow: ALLOW });
    }
    if (reading) {
      const resource = await caldav.resource(user.id, collection.groupId, name);
      if (!resource) throw notFound('Todo');
      if (request.headers['if-none-match'] === resource.etag) return reply.code(304).send();
      return reply
        .header('etag', resource.etag)
        .header('content-type', 'text/calendar; charset=utf-8')
        .send(resource.data);
    }
    if (request.method === 'PUT') {
      if (typeof request.body !== 'string') throw badRequest('body: a PUT needs iCalendar data');
      const header = (value: string | string[] | undefined) =>
        typeof value === 'string' ? value : null;
      let written: Awaited<ReturnType<typeof caldav.put>>;
      try {
        written = await caldav.put(user, collection, name, request.body, {
          ifMatch: header(request.headers['if-match']),
          ifNoneMatch: header(request.headers['if-none-match']),
        });
      } catch (error) {
        // A no-uid-conflict names the resource that holds the UID (RFC 4791, 5.3.2.1).
        if (error instanceof DavPrecondition && error.resource !== undefined) {
          const holder = dav('href', h.resource(collection, error.resource));
          return davError(reply, error.statusCode, { ...error.condition, children: [holder] });
        }
        throw error;
      }
      const { created, id, etag } = written;
      app.live.publish(user.id, { type: created ? 'todo.created' : 'todo.updated', id });
      await app.notifications.todoEvent(user.id, created ? 'todo.created' : 'todo.updated', id);
      // The new ETag, which a client's next If-Match names (docs/decisions/113-versions-and-if-match.md),
      // only when the object stored is the one sent: else the client reads what Tally made of it.
      if (etag !== null) reply.header('etag', etag);
      return reply.code(created ? 201 : 204).send();
    }
    if (request.method === 'DELETE') {
      const header = request.headers['if-match'];
      const id = await caldav.remove(
        user.id,
        collection,
        name,
        typeof header === 'string' ? header : null,
      );
      if (id === null) throw notFound('Todo');
      app.live.publish(user.id, { type: 'todo.deleted', id });
      await app.notifications.todoEvents(user.id, 'todo.deleted', [id]);
      return reply.code(204).send();
    }
    throw new AppError(405, `${request.method} is not allowed on a todo`, { allow: ALLOW });
  }

  // RFC 6764: a client given only the server's address finds the CalDAV tree here.
  app.route({
    method: ['GET', 'PROPFIND', 'OPTIONS'],
    url: '/.well-known/caldav',
    config: { public: true },
    schema: NOT_IN_OPENAPI,
    handler: (_request, reply) => reply.redirect('/dav/', 301),
  });
  // A client given only the base URL may ask it directly (DAVx⁵, python-caldav) before or
  // instead of the well-known address: it answers as /dav/ does.
  app.route({
    method: 'PROPFIND',
    url: '/',
    config: { public: true },
    schema: NOT_IN_OPENAPI,
    handler: handle,
  });
  for (const url of ['/dav', '/dav/*']) {
    app.route({
      method: ['GET', 'PUT', 'DELETE', 'OPTIONS', ...DAV_METHODS.filter((m) => m !== 'REPORT')],
      url,
      bodyLimit: DAV_BODY_LIMIT_BYTES,
      config: { public: true },
      schema: NOT_IN_OPENAPI,
      handler: handle,
    });
    // A multiget of a calendar's every object is larger than any object a PUT may hold.
    app.route({
      method: 'REPORT',
      url,
      bodyLimit: DAV_REPORT_BODY_LIMIT_BYTES,
      config: { public: true },
      schema: NOT_IN_OPENAPI,
      handler: handle,
    });
  }
};
