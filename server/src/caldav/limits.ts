import { LIMITS } from '@tally/contract';
import { badRequest } from '../shared/errors.js';

/**
 * What one CalDAV request may hold and what one calendar object may keep, in one place
 * (docs/security.md, CalDAV limits; docs/decisions/103-caldav-bounds.md). Every bound is checked
 * before the work it bounds: a body by Fastify before it is read, XML markup before xmldom
 * parses it, an object's properties before any is mapped, so no request can hold the event loop
 * for long, whatever it holds. The API's own limits (a title of 200 characters, a description of
 * 20,000, 20 tags) are checked where the VTODO is mapped (vtodo.ts).
 */

/**
 * What Tally keeps of one calendar object besides its fields (todos.ics_extra, as JSON), but for
 * its title and description as written (bounded by the API's 200 and 20,000 characters): the
 * properties, alarms and occurrences it does not model, and the other mapped ones as the client
 * wrote them. A phone's reminder with attachments' links, alarms and Apple's properties is a few
 * KB. Every answer holding the object writes and hashes this much (bench/caldav-abuse.mjs: at
 * 256 KB, three calendar-queries over 100 such objects held other requests up to 414 ms).
 */
const OBJECT_KEPT_MAX_BYTES = 128 * 1024;

/**
 * A CalDAV request body: a calendar object up to what Tally keeps of it, with the VTIMEZONEs a
 * client sends along and line folding; a multiget of MULTIGET_HREFS_MAX hrefs is about 150 KB.
 */
export const DAV_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Lines of one calendar object as sent, folded ones included: a body at the limit folded at 75
 * octets is about 7,000; checked before ical.js parses it (10,000 short lines take it 100 ms).
 */
const OBJECT_LINES_MAX = 10_000;
/** Properties of one calendar object, all its components together. */
const OBJECT_PROPERTIES_MAX = 1_000;
/** Components of one calendar object (its VTODOs, alarms, time zones and their observances). */
const OBJECT_COMPONENTS_MAX = 200;
/** Values of one property (CATEGORIES, RDATE, EXDATE, RESOURCES are lists). */
const PROPERTY_VALUES_MAX = 100;
/**
 * CATEGORIES values of one VTODO, counted before duplicates are dropped: room for a client
 * that repeats a category in several properties, five times the tags a todo may have.
 */
export const CATEGORY_VALUES_MAX = 5 * LIMITS.tagsPerTodoMax;

/**
 * Elements (counted as `<`, closing tags too) of one XML request body but a REPORT's: a deeper
 * or wider document is refused before it is parsed.
 */
const XML_MARKUP_MAX = 5_000;
/**
 * Hrefs of one calendar-multiget: DAVx⁵ asks for 10 at a time, others for up to 500, but
 * vdirsyncer names every object it lacks in one multiget, all of a calendar on a first sync:
 * room for a calendar of 10,000 todos. xmldom parses 10,000 hrefs in 100-350 ms (a busy
 * machine's figure), once per first sync.
 */
export const MULTIGET_HREFS_MAX = 10_000;
/** A REPORT's elements: an open and a close tag per href of MULTIGET_HREFS_MAX, and the rest. */
export const REPORT_XML_MARKUP_MAX = 2 * MULTIGET_HREFS_MAX + 500;
/** A REPORT's body: MULTIGET_HREFS_MAX hrefs of up to about 200 characters each. */
export const DAV_REPORT_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** Properties one PROPFIND or REPORT asks for: clients ask for 5 to 40. */
export const PROPS_REQUESTED_MAX = 200;

const count = (what: number) => what.toLocaleString('en');

/** Refuses an XML body with more elements than its request needs, before it is parsed. */
export function boundXml(text: string, max = XML_MARKUP_MAX): void {
  let elements = 0;
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) {
    elements += 1;
    if (elements > max) {
      throw badRequest(`body: an XML request holds at most ${count(max)} elements`);
    }
  }
}

/** Refuses a calendar object of more lines than OBJECT_LINES_MAX, before it is parsed. */
export function boundLines(text: string): void {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    lines += 1;
    if (lines > OBJECT_LINES_MAX) {
      throw badRequest(`body: a calendar object holds at most ${count(OBJECT_LINES_MAX)} lines`);
    }
  }
}

type JCalProperty = [string, Record<string, unknown>, string, ...unknown[]];
type JCalComponent = [string, JCalProperty[], JCalComponent[]];

/**
 * Refuses a parsed calendar object with more components, properties or values than
 * OBJECT_COMPONENTS_MAX, OBJECT_PROPERTIES_MAX and PROPERTY_VALUES_MAX, naming the property.
 */
export function boundObject(calendar: JCalComponent): void {
  let components = 0;
  let properties = 0;
  const pending = [calendar];
  for (let component = pending.pop(); component; component = pending.pop()) {
    components += 1;
    if (components > OBJECT_COMPONENTS_MAX) {
      throw badRequest(
        `${component[0].toUpperCase()}: a calendar object holds at most ${count(OBJECT_COMPONENTS_MAX)} components`,
      );
    }
    for (const property of component[1]) {
      properties += 1;
      const name = property[0].toUpperCase();
      if (properties > OBJECT_PROPERTIES_MAX) {
        throw badRequest(
          `${name}: a calendar object holds at most ${count(OBJECT_PROPERTIES_MAX)} properties`,
        );
      }
      if (property.length - 3 > PROPERTY_VALUES_MAX) {
        throw badRequest(`${name}: a property holds at most ${count(PROPERTY_VALUES_MAX)} values`);
      }
    }
    pending.push(...component[2]);
  }
}

/**
 * Refuses an object whose kept part (todos.ics_extra, `json`) is over OBJECT_KEPT_MAX_BYTES,
 * naming the largest of the properties and components it keeps (`parts`).
 */
export function boundKept(json: string, parts: readonly (JCalProperty | JCalComponent)[]): void {
  if (Buffer.byteLength(json) <= OBJECT_KEPT_MAX_BYTES) return;
  let largest = 'body';
  let largestSize = 0;
  for (const part of parts) {
    const size = JSON.stringify(part).length;
    if (size > largestSize) [largest, largestSize] = [part[0].toUpperCase(), size];
  }
  throw badRequest(
    `${largest}: Tally keeps at most ${OBJECT_KEPT_MAX_BYTES / 1024} KB of a calendar object's other properties`,
  );
}

/**
 * Occurrences of one repeating todo a time-range filter looks at: ical.js takes about 20 µs for
 * each, so one object costs at most about 10 ms. A plain daily, weekly, monthly or yearly rule
 * starts them just before the range (caldav/filters.ts, startNear); other rules walk from their
 * first date (a monthly one with BY parts reaches 40 years).
 * The expansion stops earlier at the first occurrence after the range.
 */
export const OCCURRENCES_CHECKED_MAX = 500;

/**
 * Requests one app password makes over CalDAV in CALDAV_WINDOW_MS: a phone's first sync of
 * 10,000 todos (each uploaded by its own PUT, or fetched ten to a multiget) with room for
 * discovery and retries. Past it a 429 with Retry-After. The API's tokens keep their
 * TOKEN_REQUESTS_PER_MINUTE (contract/src/tokens.ts).
 */
export const CALDAV_REQUESTS_PER_WINDOW = 12_000;
export const CALDAV_WINDOW_MS = 15 * 60_000;
