import { LIMITS, type Repeat, WEEKDAYS } from '@tally/contract';
import { TZDate } from '@date-fns/tz';
import type ICAL from 'ical.js';
import { rruleOf, vtimezone } from '../calendar/ics.js';
import { localDateTime } from '../shared/calendar.js';
import { badRequest } from '../shared/errors.js';
import { onFirstUse } from '../shared/on-first-use.js';
import { boundKept, boundLines, boundObject, CATEGORY_VALUES_MAX } from './limits.js';
import { DavPrecondition, NS } from './xml.js';

let loadedIcal: typeof ICAL | undefined;
/**
 * ical.js, loaded at the first CalDAV request (caldav/auth.ts awaits this before it reads or
 * writes any VTODO), not at start: most requests never need it (docs/decisions/097-modules-on-first-use.md).
 */
export const loadIcal = onFirstUse(async () => {
  loadedIcal = (await import('ical.js')).default;
  return loadedIcal;
});
/** ical.js once loadIcal() has resolved; before, a programming error. */
export function ical(): typeof ICAL {
  if (loadedIcal === undefined) throw new Error('ical.js is used before loadIcal() resolved');
  return loadedIcal;
}

/**
 * A todo as a VTODO and back (docs/product.md, Calendar apps; docs/decisions/085-caldav.md),
 * read and written with ical.js as jCal (RFC 7265), which holds every property, parameter and
 * value exactly. What Tally models becomes its fields; everything else (X-APPLE-*, ATTACH, GEO,
 * alarms it cannot show, …) is kept in `Extra` and written back unchanged. A mapped property is
 * also kept as the client wrote it, with the Tally value it meant: while that value is unchanged
 * it goes back verbatim (its parameters, its DUE zone, PRIORITY 2 rather than 1), so a round
 * trip through Tally changes nothing a client wrote.
 */

type JCalProperty = [string, Record<string, unknown>, string, ...unknown[]];
export type JCalComponent = [string, JCalProperty[], JCalComponent[]];

/** What a VTODO says in Tally's terms. */
export interface VtodoFields {
  title: string;
  description: string | null;
  completed: boolean;
  dueDate: string | null;
  dueTime: string | null;
  startDate: string | null;
  repeat: Repeat | null;
  /** Its reminders, minutes before DUE, largest first (one VALARM each). */
  reminders: number[];
  /** A time block's length (docs/decisions/166-todo-durations.md): DURATION from DTSTART. */
  durationMinutes: number | null;
  tags: string[];
  priority: 0 | 1 | 2 | 3;
  /** The UID of its parent (RELATED-TO;RELTYPE=PARENT). */
  parentUid: string | null;
}

/**
 * The aspects of a todo a VTODO maps (CODECS), in the order their properties are written; the
 * reminder ('remind') is an alarm, written among the components.
 */
const ASPECT_NAMES = [
  'summary',
  'description',
  'status',
  'due',
  'start',
  'duration',
  'rrule',
  'priority',
  'categories',
  'parent',
] as const;
type Aspect = (typeof ASPECT_NAMES)[number] | 'remind';

/** The part of a VTODO Tally does not model, stored as JSON in todos.ics_extra. */
export interface Extra {
  /** VCALENDAR properties other than those Tally writes (X-WR-*, …). */
  calendar: JCalProperty[];
  /** VTODO properties Tally does not model, in their order. */
  props: JCalProperty[];
  /** VTODO sub-components other than the reminder alarms. */
  components: JCalComponent[];
  /**
   * Other components of the object: overridden occurrences, and the VTIMEZONEs a client sent
   * for zones Tally writes none for (not IANA, or named only by properties it does not model).
   */
  siblings: JCalComponent[];
  /** Mapped properties as the client wrote them, with the value they meant. */
  known: Partial<Record<Aspect, { value: unknown; props: JCalProperty[] }>>;
  /**
   * The alarm that was the one reminder, as the client wrote it: objects stored before a todo had
   * several (docs/decisions/175-several-reminders-per-todo.md); newer ones keep `reminders`.
   */
  reminder: JCalComponent | null;
  /** The alarms that are the reminders, as the client wrote them. */
  reminders?: JCalComponent[];
  /** The zone of the client's DUE (its TZID): Tally's due time is a wall time in it. */
  zone: string | null;
  /**
   * The client's DTSTAMP, CREATED and LAST-MODIFIED as written (absent in objects stored before
   * they were kept: those are written with Tally's own).
   */
  stamps?: JCalProperty[];
  /**
   * The object exactly as the client sent it, when Tally had nothing to add to it: served as is
   * while every field keeps the value it meant (docs/decisions/120-caldav-objects-as-sent.md).
   */
  sent?: string;
}

/** Kept apart from the fields (Extra.stamps): the server writes them anew when Tally changes the object. */
const SERVER_PROPS = new Set(['uid', 'dtstamp', 'created', 'last-modified']);
const CALENDAR_PROPS = new Set(['version', 'prodid', 'calscale', 'method']);

/** Zones already checked: making an Intl.DateTimeFormat per timed object was most of its cost. */
const zonesChecked = new Map<string, boolean>();

const isIanaZone = (zone: string) => {
  const known = zonesChecked.get(zone);
  if (known !== undefined) return known;
  let iana: boolean;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    iana = zone.includes('/') || zone === 'UTC';
  } catch {
    iana = false;
  }
  // Bounded: a client may name any zone (TZID) it likes.
  if (zonesChecked.size >= 256) zonesChecked.clear();
  zonesChecked.set(zone, iana);
  return iana;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A text's length as the API's limits count it: in code points, an emoji one. */
const codePoints = (text: string) => [...text].length;

/**
 * Appends a list a client sized (its lines of one property): push(...items) fails with a
 * RangeError past the arguments a call can take (about 120,000), and an object stored with so
 * many would then fail every read of its calendar.
 */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

// --- Reading -----------------------------------------------------------------------------------

/** A DATE or DATE-TIME as Tally's date and time: a UTC time in `zone`, other times as written. */
function wallOf(property: JCalProperty, zone: string): { date: string; time: string | null } {
  const value = String(property[3]);
  if (property[2] === 'date') return { date: value.slice(0, 10), time: null };
  if (value.endsWith('Z')) {
    const local = localDateTime(Date.parse(value), zone);
    return { date: local.date, time: local.time };
  }
  return { date: value.slice(0, 10), time: value.slice(11, 16) };
}

const BYDAY: Record<string, Repeat['weekdays'] extends (infer D)[] | undefined ? D : never> = {
  MO: 'mon',
  TU: 'tue',
  WE: 'wed',
  TH: 'thu',
  FR: 'fri',
  SA: 'sat',
  SU: 'sun',
};

const listOf = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * A RRULE as Tally's repeat, or null when Tally has no rule for it (COUNT, UNTIL, BYSETPOS,
 * several month days, …): such a rule is kept as the client wrote it, a "custom repeat".
 */
function repeatOf(recur: Record<string, unknown>, dueDate: string): Repeat | null {
  const known = new Set(['freq', 'interval', 'byday', 'bymonthday', 'bymonth', 'wkst']);
  if (Object.keys(recur).some((key) => !known.has(key))) return null;
  const every = Number(recur.interval ?? 1);
  if (!Number.isInteger(every) || every < 1 || every > 365) return null;
  const byday = listOf(recur.byday).map(String);
  const monthDays = listOf(recur.bymonthday).map(Number);
  const months = listOf(recur.bymonth).map(Number);
  const dueDay = Number(dueDate.slice(8, 10));
  const dueMonth = Number(dueDate.slice(5, 7));
  const dayOf = (day: number) => (day === -1 ? 31 : day);
  switch (recur.freq) {
    case 'DAILY':
      if (byday.length || monthDays.length || months.length) return null;
      return { every, unit: 'day', from: 'due' };
    case 'WEEKLY': {
      if (monthDays.length || months.length) return null;
      const weekdays = byday.map((day) => BYDAY[day]);
      if (weekdays.some((day) => day === undefined)) return null;
      const sorted = [...new Set(weekdays)].sort(
        (a, b) => WEEKDAYS.indexOf(a ?? 'mon') - WEEKDAYS.indexOf(b ?? 'mon'),
      ) as NonNullable<Repeat['weekdays']>;
      return sorted.length
        ? { every, unit: 'week', weekdays: sorted, from: 'due' }
        : { every, unit: 'week', from: 'due' };
    }
    case 'MONTHLY': {
      if (months.length) return null;
      if (byday.length === 1 && !monthDays.length) {
        const match = /^(-1|[1-5])(MO|TU|WE|TH|FR|SA|SU)$/.exec(byday[0] ?? '');
        const weekday = match ? BYDAY[match[2] ?? ''] : undefined;
        if (!match || !weekday) return null;
        const n = Number(match[1]) as 1 | 2 | 3 | 4 | 5 | -1;
        return { every, unit: 'month', nthWeekday: { n, weekday }, from: 'due' };
      }
      if (byday.length || monthDays.length > 1) return null;
      const day = monthDays[0] ?? dueDay;
      if (day === 0 || day < -1 || day > 31) return null;
      return { every, unit: 'month', monthDay: dayOf(day), from: 'due' };
    }
    case 'YEARLY': {
      if (byday.length || monthDays.length > 1 || months.length > 1) return null;
      if (months.length && months[0] !== dueMonth) return null;
      const day = monthDays[0] ?? dueDay;
      if (day === 0 || day < -1 || day > 31) return null;
      return { every, unit: 'year', monthDay: dayOf(day), from: 'due' };
    }
    default:
      return null;
  }
}

/** Tags in one order whatever order a client wrote them in: the same set is the same value. */
const inOrder = (tags: readonly string[]) =>
  [...tags].sort(
    (a, b) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en') || (a < b ? -1 : 1),
  );

/** PRIORITY (1 highest … 9 lowest, 0 undefined) as Tally's 0-3. */
const priorityOf = (value: number): 0 | 1 | 2 | 3 =>
  value >= 1 && value <= 4 ? 3 : value === 5 ? 2 : value >= 6 && value <= 9 ? 1 : 0;

/** A CATEGORIES value as a tag name: no spaces or commas, at most 30 characters. */
const tagOf = (category: string) =>
  category
    .trim()
    // eslint-disable-next-line no-control-regex -- exactly what TAG_NAME_PATTERN refuses
    .replace(/[\s,\u0000]+/g, '-')
    .slice(0, LIMITS.tagNameMax);

/** The minutes before DUE of an alarm that Tally can show as its reminder, or null. */
function reminderMinutes(alarm: JCalComponent, related: 'START' | 'END'): number | null {
  const trigger = alarm[1].find((p) => p[0] === 'trigger');
  const action = alarm[1].find((p) => p[0] === 'action');
  const relatedTo = String(trigger?.[1].related ?? 'START').toUpperCase();
  if (!trigger || trigger[2] !== 'duration' || relatedTo !== related) return null;
  if (action && !['DISPLAY', 'AUDIO'].includes(String(action[3]).toUpperCase())) return null;
  const seconds = ical().Duration.fromString(String(trigger[3])).toSeconds();
  if (seconds > 0 || seconds % 60 !== 0) return null;
  const minutes = -seconds / 60;
  return minutes <= LIMITS.remindMinutesBeforeMax ? minutes : null;
}

/** A DURATION in whole minutes that a todo can have, or null. */
function durationMinutesOf(property: JCalProperty | undefined): number | null {
  if (!property || property[2] !== 'duration') return null;
  const minutes = ical().Duration.fromString(String(property[3])).toSeconds() / 60;
  return Number.isInteger(minutes) && minutes >= 1 && minutes <= LIMITS.durationMinutesMax
    ? minutes
    : null;
}

/**
 * A time block: a timed todo with a duration and no start date of its own, which goes out as
 * DTSTART at its due time and DURATION (RFC 5545 allows DURATION only with DTSTART, never beside
 * DUE). A todo with a start date keeps DUE and DTSTART, and its duration stays in Tally.
 */
const isBlock = (todo: VtodoFields) =>
  todo.durationMinutes !== null &&
  todo.dueDate !== null &&
  todo.dueTime !== null &&
  todo.startDate === null;

/**
 * How deep components nest: VCALENDAR, VTODO, VALARM and a few of a client's own below them.
 * Deeper nesting serves no calendar app, and every later write-back would recurse through it.
 */
const NESTING_MAX = 8;

/**
 * Refuses what Tally could store but not keep or read again: a NUL anywhere (PostgreSQL cannot
 * store it), components nested beyond NESTING_MAX, and a value ical.js cannot read as its type
 * (a DUE of VALUE=DATE-TIME without a time, an UNTIL or a TRIGGER that is no time or duration),
 * which a calendar-query's filter or Tally's own reading would trip over on every later request.
 */
function checkComponents(calendar: JCalComponent, hasNul: boolean): void {
  const stack: [JCalComponent, number][] = [[calendar, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [component, depth] = next;
    if (depth > NESTING_MAX) {
      throw badRequest(
        `${component[0].toUpperCase()}: components nest at most ${NESTING_MAX} deep`,
      );
    }
    for (const property of component[1]) {
      const name = property[0].toUpperCase();
      if (hasNul && JSON.stringify(property).includes('\\u0000')) {
        throw badRequest(`${name} must not contain NUL characters`);
      }
      try {
        new (ical().Property)(property).getValues();
      } catch {
        throw badRequest(`${name}: not a valid ${String(property[2]).toUpperCase()} value`);
      }
    }
    for (const child of component[2]) stack.push([child, depth + 1]);
  }
}

/**
 * A VEVENT or VJOURNAL sent to a calendar of VTODOs: the calendar's supported-calendar-component-set
 * names VTODO only, and a client told so (403) does not retry it as if the data were broken.
 */
const notTodos = (message: string) =>
  new DavPrecondition(403, message, { ns: NS.caldav, name: 'supported-calendar-component' });

/** The first VCALENDAR of the text, and whether it is the only component there. */
function parseCalendar(text: string): { calendar: JCalComponent; alone: boolean } {
  let parsed: unknown[];
  try {
    parsed = ical().parse(text) as unknown[];
  } catch {
    throw badRequest('body: not valid iCalendar data');
  }
  const alone = !Array.isArray(parsed[0]);
  const calendar = (alone ? parsed : parsed[0]) as JCalComponent;
  if (!Array.isArray(calendar) || calendar[0] !== 'vcalendar') {
    throw badRequest('body: iCalendar data must be one VCALENDAR');
  }
  return { calendar, alone };
}

/**
 * Reads a calendar object with one VTODO. `zone` places a UTC DUE in the user's calendar when
 * the VTODO names no zone of its own.
 */
export function parseVtodo(
  text: string,
  zone: string,
): { uid: string; fields: VtodoFields; extra: Extra; customRepeat: string | null } {
  boundLines(text);
  const { calendar, alone } = parseCalendar(text);
  boundObject(calendar);
  checkComponents(calendar, text.includes('\u0000'));
  const todos = calendar[2].filter((c) => c[0] === 'vtodo');
  const master = todos.find((c) => !c[1].some((p) => p[0] === 'recurrence-id'));
  if (!master) throw notTodos('body: the calendar object must hold a VTODO');
  const uidProperty = master[1].find((p) => p[0] === 'uid');
  const uid = uidProperty ? String(uidProperty[3]) : '';
  if (!uid || uid.length > 255) throw badRequest('UID: a VTODO needs a UID of 1-255 characters');
  if (calendar[2].some((c) => c[0] !== 'vtodo' && c[0] !== 'vtimezone')) {
    throw notTodos('body: a calendar object here holds VTODOs only');
  }
  if (todos.some((c) => String(c[1].find((p) => p[0] === 'uid')?.[3]) !== uid)) {
    throw badRequest('UID: every VTODO of one object must have the same UID');
  }

  const extra: Extra = {
    calendar: calendar[1].filter((p) => !CALENDAR_PROPS.has(p[0])),
    props: [],
    components: [],
    siblings: todos.filter((c) => c !== master),
    known: {},
    reminder: null,
    reminders: [],
    zone: null,
  };
  const byName = new Map<string, JCalProperty[]>();
  for (const property of master[1]) {
    if (SERVER_PROPS.has(property[0])) continue;
    const list = byName.get(property[0]) ?? [];
    list.push(property);
    byName.set(property[0], list);
  }
  const take = (name: string) => {
    const list = byName.get(name) ?? [];
    byName.delete(name);
    return list;
  };
  const reading: Reading = {
    take,
    remember: () => undefined,
    extra,
    zone,
    fields: {
      title: '',
      description: null,
      completed: false,
      dueDate: null,
      dueTime: null,
      startDate: null,
      repeat: null,
      reminders: [],
      durationMinutes: null,
      tags: [],
      priority: 0,
      parentUid: null,
    },
    customRepeat: null,
    dates: [],
    components: master[2],
  };
  const read = (aspect: Aspect) => {
    reading.remember = (value, props) => {
      extra.known[aspect] = { value, props };
    };
    CODECS[aspect].read(reading);
  };
  for (const aspect of ASPECT_NAMES) read(aspect);
  // What no aspect took is kept as written, in its order.
  for (const list of byName.values()) append(extra.props, list);
  read('remind');
  const { fields, customRepeat } = reading;

  // The client's VTIMEZONEs of zones Tally writes none for (renderVtodo writes the modelled ones).
  const modelled = new Set(
    reading.dates.map((property) => property[1].tzid).filter((tzid) => isIanaZone(String(tzid))),
  );
  extra.siblings.push(
    ...calendar[2].filter((c) => {
      const tzid = String(c[1].find((p) => p[0] === 'tzid')?.[3]);
      return c[0] === 'vtimezone' && !(isIanaZone(tzid) && modelled.has(tzid));
    }),
  );
  // The title and description as written are bounded by the API's limits, not by this total.
  const others = { ...extra.known, summary: undefined, description: undefined };
  boundKept(JSON.stringify({ ...extra, known: others }), [
    ...extra.calendar,
    ...extra.props,
    ...extra.components,
    ...extra.siblings,
    ...Object.values(others).flatMap((known) => known?.props ?? []),
  ]);

  return {
    uid,
    fields,
    extra: {
      ...extra,
      stamps: ['dtstamp', 'created', 'last-modified'].flatMap((name): JCalProperty[] =>
        master[1].filter((p) => p[0] === name).slice(0, 1),
      ),
      ...(alone && CALENDAR_ONLY.test(text) && addsNothing(calendar, todos) ? { sent: text } : {}),
    },
    customRepeat,
  };
}

/**
 * A text that is the VCALENDAR and nothing else. A blank line before or after it is not
 * iCalendar (RFC 5545, 3.4): served as sent, it makes clients warn or refuse the object, so
 * Tally writes such an object itself.
 */
const CALENDAR_ONLY = /^BEGIN:VCALENDAR\r?\n[\s\S]*\nEND:VCALENDAR(\r?\n)?$/i;

/**
 * Whether Tally stores the object as sent, adding nothing: a VCALENDAR with VERSION and PRODID
 * and without METHOD (RFC 4791, 4.1), a DTSTAMP in every VTODO (RFC 5545, 3.6.2), and a
 * VTIMEZONE for every TZID (RFC 5545, 3.2.19). Otherwise Tally writes the object itself, adding
 * what the RFCs require.
 */
function addsNothing(calendar: JCalComponent, todos: JCalComponent[]): boolean {
  const has = (component: JCalComponent, name: string) => component[1].some((p) => p[0] === name);
  const described = new Set(
    calendar[2]
      .filter((c) => c[0] === 'vtimezone')
      .map((c) => String(c[1].find((p) => p[0] === 'tzid')?.[3])),
  );
  const zoned = (component: JCalComponent): boolean =>
    component[1].every((p) => typeof p[1].tzid !== 'string' || described.has(p[1].tzid)) &&
    component[2].every(zoned);
  return (
    has(calendar, 'version') &&
    has(calendar, 'prodid') &&
    !has(calendar, 'method') &&
    todos.every((todo) => has(todo, 'dtstamp') && zoned(todo))
  );
}

// --- Writing -----------------------------------------------------------------------------------

/** A todo as render() needs it. */
export interface RenderedTodo extends VtodoFields {
  uid: string;
  createdAt: number;
  updatedAt: number;
  extra: Extra | null;
}

const utc = (epochMs: number) => new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');

const ICS_PRIORITY = [0, 9, 5, 1] as const;

/** A wall time (YYYY-MM-DD, HH:MM, SS) in the zone as a UTC date-time in jCal's form. */
function utcOfWall(date: string, time: string, seconds: string, zone: string): string {
  if (zone === 'UTC') return `${date}T${time}:${seconds}Z`;
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const instant = new TZDate(year, month - 1, day, hours, minutes, Number(seconds), zone);
  return utc(instant.getTime());
}

/**
 * A client's DUE or DTSTART (a date-time in UTC or with a TZID) moved to Tally's new date and
 * wall time (null: its own time of day), written in the client's form: UTC stays UTC, a TZID
 * stays, and the seconds stay while the wall time's minute does. Null for a date or a floating
 * time, which Tally writes in the user's zone instead (generated).
 */
function reformed(
  template: JCalProperty | undefined,
  date: string,
  time: string | null,
  zone: string,
): JCalProperty | null {
  if (!template || template[2] !== 'date-time') return null;
  const value = String(template[3]);
  const isUtc = value.endsWith('Z');
  if (!isUtc && typeof template[1].tzid !== 'string') return null;
  const was = isUtc
    ? localDateTime(Date.parse(value), zone)
    : { date: value.slice(0, 10), time: value.slice(11, 16) };
  const wall = time ?? was.time;
  const seconds = wall === was.time ? value.slice(17, 19) || '00' : '00';
  return [
    template[0],
    template[1],
    'date-time',
    isUtc ? utcOfWall(date, wall, seconds, zone) : `${date}T${wall}:${seconds}`,
  ];
}

/** What reading an aspect sees, and the fields the aspects read before it wrote. */
interface Reading {
  /** The VTODO's properties of this name, each taken by one aspect only. */
  take: (name: string) => JCalProperty[];
  /**
   * Keeps how the client wrote the aspect (its properties) with the value they meant, also when
   * it left the aspect out (no properties): Tally then adds nothing while the value holds.
   */
  remember: (value: unknown, props: JCalProperty[]) => void;
  extra: Extra;
  /** The user's zone: a UTC time is a wall time in it, unless the client's DUE names another. */
  zone: string;
  fields: VtodoFields;
  /** The rule Tally cannot represent, as the web app shows it ("custom repeat"). */
  customRepeat: string | null;
  /** The DUE and DTSTART read, whose zones Tally writes VTIMEZONEs for. */
  dates: JCalProperty[];
  /** The VTODO's own components (its alarms). */
  components: JCalComponent[];
}

/**
 * One aspect of a todo as iCalendar, both ways: `read` takes its properties from a VTODO into
 * the fields (and remembers how they were written), `write` makes them from the fields (a time in
 * `zone`: TZID with its VTIMEZONE, or UTC without one, never floating, which a client in another
 * zone would show at another time), and `value` is the fields' value the remembered one is
 * compared with: while they are the same, the client's own properties are written back.
 */
interface AspectCodec {
  read: (reading: Reading) => void;
  write: (todo: RenderedTodo, zone: string | null) => JCalProperty[];
  value: (todo: RenderedTodo) => unknown;
}

/** A date and time of the todo, in `zone`, or UTC. */
const dateTimeIn = (zone: string | null, date: string, time: string): JCalProperty[number][] =>
  zone !== null && zone !== 'UTC'
    ? [{ tzid: zone }, 'date-time', `${date}T${time}:00`]
    : [{}, 'date-time', `${date}T${time}:00Z`];

const CODECS: Record<Aspect, AspectCodec> = {
  summary: {
    read({ take, remember, extra, fields }) {
      const summary = take('summary');
      const title = String(summary[0]?.[3] ?? '').trim() || 'Untitled';
      if (codePoints(title) > LIMITS.todoTitleMax) {
        throw badRequest(`SUMMARY must be at most ${LIMITS.todoTitleMax} characters`);
      }
      fields.title = title;
      remember(title, summary.slice(0, 1));
      append(extra.props, summary.slice(1));
    },
    write: (todo) => [['summary', {}, 'text', todo.title]],
    value: (todo) => todo.title,
  },
  description: {
    read({ take, remember, extra, fields }) {
      const descriptions = take('description');
      const description = descriptions.length ? String(descriptions[0]?.[3] ?? '') : null;
      if (description && codePoints(description) > LIMITS.todoDescriptionMax) {
        throw badRequest(`DESCRIPTION must be at most ${LIMITS.todoDescriptionMax} characters`);
      }
      fields.description = description;
      remember(description, descriptions.slice(0, 1));
      append(extra.props, descriptions.slice(1));
    },
    write: (todo) =>
      todo.description === null ? [] : [['description', {}, 'text', todo.description]],
    value: (todo) => todo.description,
  },
  status: {
    read({ take, remember, fields }) {
      const status = [...take('status'), ...take('completed'), ...take('percent-complete')];
      fields.completed = status.some(
        ([name, , , value]) =>
          (name === 'status' && String(value).toUpperCase() === 'COMPLETED') ||
          name === 'completed' ||
          (name === 'percent-complete' && Number(value) === 100),
      );
      remember(fields.completed, status);
    },
    write: (todo) =>
      todo.completed
        ? [
            ['status', {}, 'text', 'COMPLETED'],
            ['completed', {}, 'date-time', utc(todo.updatedAt)],
            ['percent-complete', {}, 'integer', 100],
          ]
        : [['status', {}, 'text', 'NEEDS-ACTION']],
    value: (todo) => todo.completed,
  },
  due: {
    read({ take, remember, extra, zone, fields, dates }) {
      const [due, ...moreDue] = take('due');
      append(extra.props, moreDue);
      const dueZone = due && typeof due[1].tzid === 'string' ? due[1].tzid : null;
      if (dueZone && isIanaZone(dueZone)) extra.zone = dueZone;
      const dueWall = due ? wallOf(due, extra.zone ?? zone) : null;
      fields.dueDate = dueWall?.date ?? null;
      fields.dueTime = dueWall?.time ?? null;
      if (due) dates.push(due);
      remember({ dueDate: fields.dueDate, dueTime: fields.dueTime }, due ? [due] : []);
    },
    // A time block's due time is its DTSTART (the duration aspect).
    write: (todo, zone) =>
      todo.dueDate === null || isBlock(todo)
        ? []
        : todo.dueTime === null
          ? [['due', {}, 'date', todo.dueDate]]
          : [['due', ...dateTimeIn(zone, todo.dueDate, todo.dueTime)] as JCalProperty],
    value: (todo) => ({
      dueDate: todo.dueDate,
      dueTime: todo.dueTime,
      ...(isBlock(todo) ? { block: true } : {}),
    }),
  },
  start: {
    read({ take, remember, extra, zone, fields, dates }) {
      const [start, ...moreStart] = take('dtstart');
      append(extra.props, moreStart);
      fields.startDate = start ? wallOf(start, extra.zone ?? zone).date : null;
      if (start) dates.push(start);
      remember(fields.startDate, start ? [start] : []);
    },
    // RFC 5545 (3.8.2.3): DUE and DTSTART have the same value type.
    write: (todo, zone) =>
      todo.startDate === null
        ? []
        : todo.dueDate !== null && todo.dueTime !== null
          ? [['dtstart', ...dateTimeIn(zone, todo.startDate, '00:00')] as JCalProperty]
          : [['dtstart', {}, 'date', todo.startDate]],
    value: (todo) => todo.startDate,
  },
  duration: {
    // Read after DUE and DTSTART: DTSTART (a time) and DURATION without DUE are a time block, whose
    // start is Tally's due time; any other DURATION is kept as written.
    read({ take, remember, extra, zone, fields }) {
      const [duration, ...moreDurations] = take('duration');
      append(extra.props, moreDurations);
      const minutes = durationMinutesOf(duration);
      const start = extra.known.start?.props[0];
      const dueProps = extra.known.due?.props ?? [];
      if (!duration || minutes === null || dueProps.length || start?.[2] !== 'date-time') {
        if (duration) extra.props.push(duration);
        remember(null, []);
        return;
      }
      const startZone = typeof start[1].tzid === 'string' ? start[1].tzid : null;
      if (startZone && isIanaZone(startZone)) extra.zone = startZone;
      const wall = wallOf(start, extra.zone ?? zone);
      fields.dueDate = wall.date;
      fields.dueTime = wall.time;
      fields.startDate = null;
      fields.durationMinutes = minutes;
      // The block's DTSTART is this aspect's, not the start date's.
      const { dueDate, dueTime } = fields;
      extra.known.due = { value: { dueDate, dueTime, block: true }, props: [] };
      extra.known.start = { value: null, props: [] };
      remember({ dueDate, dueTime, durationMinutes: minutes }, [start, duration]);
    },
    write: (todo, zone) =>
      isBlock(todo) && todo.dueDate !== null && todo.dueTime !== null
        ? [
            ['dtstart', ...dateTimeIn(zone, todo.dueDate, todo.dueTime)] as JCalProperty,
            ['duration', {}, 'duration', `PT${todo.durationMinutes}M`],
          ]
        : [],
    value: (todo) =>
      isBlock(todo)
        ? { dueDate: todo.dueDate, dueTime: todo.dueTime, durationMinutes: todo.durationMinutes }
        : null,
  },
  rrule: {
    read(reading) {
      const { take, remember, extra, fields } = reading;
      const rrules = take('rrule');
      let repeat: Repeat | null = null;
      const [rrule] = rrules;
      if (rrules.length === 1 && rrule && fields.dueDate) {
        repeat = repeatOf(rrule[3] as Record<string, unknown>, fields.dueDate);
        if (repeat && String(rrule[1]['x-tally-from']).toUpperCase() === 'COMPLETION') {
          repeat = { ...repeat, from: 'completion' };
        }
      }
      fields.repeat = repeat;
      if (repeat) remember(repeat, rrules);
      else {
        remember(null, []);
        append(extra.props, rrules);
      }
      reading.customRepeat =
        !repeat && rrule
          ? ical()
              .Recur.fromData(rrule[3] as Parameters<typeof ICAL.Recur.fromData>[0])
              .toString()
          : null;
    },
    write(todo) {
      const rule =
        todo.repeat && todo.dueDate ? rruleOf({ ...todo.repeat, from: 'due' }, todo.dueDate) : null;
      return rule
        ? [
            [
              'rrule',
              todo.repeat?.from === 'completion' ? { 'x-tally-from': 'COMPLETION' } : {},
              'recur',
              ical().Recur.fromString(rule).toJSON(),
            ],
          ]
        : [];
    },
    value: (todo) => todo.repeat,
  },
  priority: {
    read({ take, remember, fields }) {
      const priorities = take('priority');
      fields.priority = priorityOf(Number(priorities[0]?.[3] ?? 0));
      remember(fields.priority, priorities);
    },
    write: (todo) =>
      todo.priority ? [['priority', {}, 'integer', ICS_PRIORITY[todo.priority]]] : [],
    value: (todo) => todo.priority,
  },
  categories: {
    read({ take, remember, fields }) {
      const categories = take('categories');
      const values = categories.flatMap((p) => p.slice(3).map(String));
      if (values.length > CATEGORY_VALUES_MAX) {
        throw badRequest(`CATEGORIES: at most ${CATEGORY_VALUES_MAX} values`);
      }
      // The first spelling of each tag, whatever its case.
      const byKey = new Map<string, string>();
      for (const category of values) {
        const tag = tagOf(category);
        if (tag && !byKey.has(tag.toLowerCase())) byKey.set(tag.toLowerCase(), tag);
      }
      const tags = [...byKey.values()];
      if (tags.length > LIMITS.tagsPerTodoMax) {
        throw badRequest(`CATEGORIES: at most ${LIMITS.tagsPerTodoMax} categories`);
      }
      fields.tags = tags;
      remember(inOrder(tags), categories);
    },
    write: (todo) => (todo.tags.length ? [['categories', {}, 'text', ...todo.tags]] : []),
    value: (todo) => inOrder(todo.tags),
  },
  parent: {
    // No parent is not remembered: an object without one is compared with null.
    read({ take, remember, extra, fields }) {
      for (const related of take('related-to')) {
        const reltype = String(related[1].reltype ?? 'PARENT').toUpperCase();
        if (fields.parentUid === null && reltype === 'PARENT') {
          fields.parentUid = String(related[3]);
          remember(fields.parentUid, [related]);
        } else {
          extra.props.push(related);
        }
      }
    },
    write: (todo) =>
      todo.parentUid ? [['related-to', { reltype: 'PARENT' }, 'text', todo.parentUid]] : [],
    value: (todo) => todo.parentUid,
  },
  remind: {
    // Each alarm Tally can show (a time before a timed DUE) is a reminder, up to the todo's limit;
    // others (another trigger, an absolute time, the same offset twice) are kept as written.
    read({ remember, extra, fields, components }) {
      // Before the due time: DUE is a VTODO's end, and a time block's start is its due time.
      const related = isBlock(fields) ? 'START' : 'END';
      const taken = new Map<number, JCalComponent>();
      for (const component of components) {
        const minutes =
          component[0] === 'valarm' && fields.dueTime ? reminderMinutes(component, related) : null;
        if (minutes !== null && !taken.has(minutes) && taken.size < LIMITS.remindersPerTodoMax) {
          taken.set(minutes, component);
        } else {
          extra.components.push(component);
        }
      }
      fields.reminders = [...taken.keys()].sort((a, b) => b - a);
      extra.reminders = [...taken.values()];
      remember(fields.reminders, []);
    },
    // Written as alarms among the components (reminderAlarms), not as properties.
    write: () => [],
    value: (todo) => todo.reminders,
  },
};

/** The client's reminder alarms (of an object stored before several, its one). */
const ownAlarms = (extra: Extra | null | undefined): JCalComponent[] =>
  extra?.reminders ?? (extra?.reminder ? [extra.reminder] : []);

/**
 * The reminders as alarms, one each: the client's own for an offset it wrote (as it wrote it),
 * else Tally's, DISPLAY with the title.
 */
function reminderAlarms(todo: RenderedTodo): JCalComponent[] {
  if (todo.dueTime === null) return [];
  const related = isBlock(todo) ? 'START' : 'END';
  const own = new Map<number, JCalComponent>();
  for (const alarm of ownAlarms(todo.extra)) {
    const minutes = reminderMinutes(alarm, related);
    if (minutes !== null && !own.has(minutes)) own.set(minutes, alarm);
  }
  return todo.reminders.map(
    (minutes) =>
      own.get(minutes) ?? [
        'valarm',
        [
          ['action', {}, 'text', 'DISPLAY'],
          ['description', {}, 'text', todo.title],
          ['trigger', { related }, 'duration', minutes === 0 ? 'PT0S' : `-PT${minutes}M`],
        ],
        [],
      ],
  );
}

/**
 * The years a VTIMEZONE must cover for these properties' dates: each date's year and the two
 * after it (a repeat's next occurrences), not the years between two dates far apart, whose
 * offsets no date of the object uses (two dates 8,000 years apart were 8,000 years of Intl).
 */
function yearsOf(properties: JCalProperty[]): number[] {
  const years = new Set<number>();
  for (const property of properties) {
    if (property[2] !== 'date-time' && property[2] !== 'date') continue;
    const year = Number(String(property[3]).slice(0, 4));
    if (!(year >= 1 && year <= 9999)) continue;
    for (let next = year; next <= Math.min(9999, year + 2); next += 1) years.add(next);
  }
  return [...years].sort((a, b) => a - b);
}

/**
 * VTIMEZONEs already written: a full sync writes the same few (zone, years) for every timed todo,
 * and each costs the zone's transitions over those years. Bounded: emptied when full.
 */
const timezones = new Map<string, JCalComponent>();
const TIMEZONES_KEPT = 256;

/** The VTIMEZONE of a zone over these years, as jCal (only read: ICAL.stringify copies). */
function timezoneOf(tzid: string, years: readonly number[]): JCalComponent {
  const key = `${tzid} ${years.join(' ')}`;
  let found = timezones.get(key);
  if (!found) {
    if (timezones.size >= TIMEZONES_KEPT) timezones.clear();
    found = ical().parse(vtimezone(tzid, years).join('\r\n')) as JCalComponent;
    timezones.set(key, found);
  }
  return found;
}

/**
 * The todo as a calendar object (renderVtodo's text). `zone`: the user's zone for a due time that
 * has no zone of its own (null: a floating time, the wall time wherever the client is).
 */
export const renderVtodo = (todo: RenderedTodo, zone: string | null): string =>
  textOf(vtodoCalendar(todo, zone));

/**
 * DTSTAMP, CREATED and LAST-MODIFIED. Of a client's object, its own while Tally changed none of
 * its fields, and no CREATED or LAST-MODIFIED it did not send: only DTSTAMP, which RFC 5545
 * requires, is added, and it and a LAST-MODIFIED the client sent say when Tally last changed the
 * object. An object made in Tally (or stored before the client's were kept) has all three.
 */
function stampsOf(todo: RenderedTodo): JCalProperty[] {
  const modified = utc(todo.updatedAt);
  const stamps = todo.extra?.stamps;
  if (!stamps) {
    return [
      ['dtstamp', {}, 'date-time', modified],
      ['created', {}, 'date-time', utc(todo.createdAt)],
      ['last-modified', {}, 'date-time', modified],
    ];
  }
  const unchanged = unchangedSinceSent(todo);
  const own = (name: string) => stamps.find((p) => p[0] === name);
  const now = (name: string): JCalProperty => [name, {}, 'date-time', modified];
  const dtstamp = own('dtstamp');
  const created = own('created');
  const lastModified = own('last-modified');
  return [
    unchanged && dtstamp ? dtstamp : now('dtstamp'),
    ...(created ? [created] : []),
    ...(lastModified ? [unchanged ? lastModified : now('last-modified')] : []),
  ];
}

/**
 * The object as the client sent it (Extra.sent) while every field Tally models holds the value
 * it meant there, else null: Tally then writes the object (vtodoCalendar).
 */
export const sentText = (todo: RenderedTodo): string | null =>
  todo.extra?.sent !== undefined && unchangedSinceSent(todo) ? todo.extra.sent : null;

/**
 * Whether every field holds the value the client's object meant (parseVtodo remembers each, a
 * parent only when there is one).
 */
function unchangedSinceSent(todo: RenderedTodo): boolean {
  return ([...ASPECT_NAMES, 'remind'] as Aspect[]).every((aspect) =>
    same(knownValue(todo.extra, aspect), CODECS[aspect].value(todo)),
  );
}

/**
 * The value a field meant in the client's object. An object stored when a todo had one reminder
 * remembered its offset or null; it means the list of that one offset, or none.
 */
function knownValue(extra: Extra | null | undefined, aspect: Aspect): unknown {
  const value = extra?.known[aspect]?.value ?? null;
  if (aspect !== 'remind' || Array.isArray(value)) return value;
  return value === null ? [] : [value];
}

/** A calendar object's text, as written to clients. */
export const textOf = (calendar: JCalComponent): string => {
  // ical.js ends its text with a line break already; one more would be an empty content line.
  const text = ical().stringify(calendar);
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
};

/**
 * The calendar object as jCal, which its text is written from and a calendar-query's filter reads
 * (componentOf) without parsing that text again.
 */
export function vtodoCalendar(todo: RenderedTodo, zone: string | null): JCalComponent {
  const extra = todo.extra;
  const writtenZone = extra?.zone ?? zone;
  const properties: JCalProperty[] = [['uid', {}, 'text', todo.uid], ...stampsOf(todo)];
  // A UTC time of the client's is a wall time in this zone (parseVtodo).
  const wallZone = extra?.zone ?? zone ?? 'UTC';
  for (const aspect of ASPECT_NAMES) {
    const known = extra?.known[aspect];
    const codec = CODECS[aspect];
    if (known && same(known.value, codec.value(todo))) {
      append(properties, known.props);
      continue;
    }
    // A date Tally moved (an edit, a repeat's advance) in the form the client wrote it.
    const own =
      aspect === 'due' && todo.dueDate !== null && todo.dueTime !== null && !isBlock(todo)
        ? reformed(known?.props[0], todo.dueDate, todo.dueTime, wallZone)
        : aspect === 'start' && todo.startDate !== null && todo.dueTime !== null
          ? reformed(known?.props[0], todo.startDate, null, wallZone)
          : null;
    properties.push(...(own ? [own] : codec.write(todo, writtenZone)));
  }
  // The dates Tally models, the only ones it writes VTIMEZONEs for: a zoned property it only
  // keeps (X-…) could ask for any span of years.
  const dates = properties.filter((p) => p[0] === 'due' || p[0] === 'dtstart');
  for (const property of extra?.props ?? []) {
    // A repeat Tally writes replaces the client's rule; a rule it cannot read stays as written.
    if (todo.repeat === null || property[0] !== 'rrule') properties.push(property);
  }
  const vtodo: JCalComponent = [
    'vtodo',
    properties,
    [...reminderAlarms(todo), ...(extra?.components ?? [])],
  ];
  const timezones = timezonesOf(dates);
  const written = new Set(timezones.map((zone) => zone[1].find((p) => p[0] === 'tzid')?.[3]));
  const calendar: JCalComponent = [
    'vcalendar',
    [
      ['version', {}, 'text', '2.0'],
      ['prodid', {}, 'text', '-//Tally//CalDAV//EN'],
      ...(extra?.calendar ?? []),
    ],
    [
      ...timezones,
      vtodo,
      // Without a client's own VTIMEZONE of a zone Tally writes (a due time set in the web app).
      ...(extra?.siblings ?? []).filter(
        (c) => c[0] !== 'vtimezone' || !written.has(c[1].find((p) => p[0] === 'tzid')?.[3]),
      ),
    ],
  ];
  return calendar;
}

/** The VTIMEZONEs of the IANA zones the properties name (TZID), over the years they use. */
function timezonesOf(properties: readonly JCalProperty[]): JCalComponent[] {
  let zones: Map<string, JCalProperty[]> | null = null;
  for (const property of properties) {
    const tzid = property[1].tzid;
    if (typeof tzid === 'string' && isIanaZone(tzid) && tzid !== 'UTC') {
      zones ??= new Map();
      zones.set(tzid, [...(zones.get(tzid) ?? []), property]);
    }
  }
  const found: JCalComponent[] = [];
  for (const [tzid, used] of zones ?? []) {
    const years = yearsOf(used);
    if (years.length) found.push(timezoneOf(tzid, years));
  }
  return found;
}

/**
 * A calendar object as an ical.js component (the calendar-query filters read it). Reading it
 * leaves the jCal as it was, so the same jCal is then written (textOf).
 */
export const componentOf = (calendar: JCalComponent) => new (ical().Component)(calendar);
