import { type Repeat, WEEKDAYS } from '@tally/contract';
import { daysInMonth, pad, weekdayOf } from '@tally/contract/dates';

/**
 * An iCalendar (RFC 5545) writer for the calendar feed, written here rather than taken from a
 * library (docs/decisions/050-api-tokens-and-calendar-feed.md): every line ends with CRLF and is
 * folded at 75 octets without splitting a UTF-8 sequence, TEXT values are escaped (backslash,
 * semicolon, comma, newline), and the VTIMEZONE comes from the same time-zone data (Intl) the
 * server computes the user's days with.
 */

const CRLF = '\r\n';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** One todo as a calendar event. */
export interface FeedEvent {
  /** Stable across fetches: todo-{id}@{host}. */
  uid: string;
  /** The todo's last change (epoch ms): DTSTAMP and LAST-MODIFIED. */
  modifiedAt: number;
  /** YYYY-MM-DD in the user's own calendar. */
  date: string;
  /** HH:mm, or null for an all-day todo. */
  time: string | null;
  repeat: Repeat | null;
  summary: string;
  description: string | null;
  /** The todo's group, if any. */
  category: string | null;
  /** Its tags, CATEGORIES after the group (decision 088). */
  tags?: readonly string[];
  /** Tally's 0-3; PRIORITY 1 (high), 5 (medium) or 9 (low), none for 0 (RFC 5545, 3.8.1.9). */
  priority?: number;
  /** The UID of its parent todo, for a subtask: RELATED-TO (RFC 5545, 3.8.4.5). */
  relatedTo?: string | null;
  /**
   * YYYY-MM-DD, its start date (decision 088): before the due date, the event spans from it
   * (DTSTART) to the due date (DTEND), unless it repeats (its RRULE counts from the due date).
   */
  startDate?: string | null;
}

/** Tally's priority as RFC 5545's: 1 highest … 9 lowest, 0 (left out) undefined. */
const ICS_PRIORITY = [0, 9, 5, 1] as const;

export interface FeedCalendar {
  name: string;
  /** IANA zone of the timed events ('UTC': times in UTC, no VTIMEZONE). */
  timeZone: string;
  events: FeedEvent[];
  /** Now (epoch ms): the VTIMEZONE covers from the earliest timed event to 10 years on. */
  now: number;
}

/**
 * A TEXT value (RFC 5545, 3.3.11): backslash, semicolon and comma escaped, line breaks as \n.
 * Control characters other than HTAB are not allowed in TEXT, so they are left out.
 */
export function escapeText(value: string): string {
  return (
    value
      .replace(/[\\;,]/g, (char) => `\\${char}`)
      .replace(/\r\n|\r|\n/g, '\\n')
      // eslint-disable-next-line no-control-regex -- exactly the characters TEXT may not hold
      .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '')
  );
}

/**
 * Folds a content line (RFC 5545, 3.1): at most 75 octets per line, each continuation starting
 * with one space. Splits between code points only, so a UTF-8 sequence (an emoji) stays whole.
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > limit) {
      lines.push(current);
      current = '';
      octets = 0;
      // The leading space of a continuation line counts toward its 75.
      limit = 74;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join(`${CRLF} `);
}

/** Epoch ms as a UTC DATE-TIME: 20261123T101500Z. */
const utcDateTime = (epochMs: number): string => {
  const d = new Date(epochMs);
  return (
    `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
};

/** Epoch ms read as a wall-clock time (the UTC fields): 20261123T101500. */
const wallDateTime = (epochMs: number) => utcDateTime(epochMs).slice(0, -1);

const basicDate = (date: string) => date.replaceAll('-', '');
/** The day after a YYYY-MM-DD. */
const dayAfter = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
const basicTime = (time: string) => `${time.replace(':', '')}00`;

// --- Repeat rules ------------------------------------------------------------------------------

const BYDAY = { mon: 'MO', tue: 'TU', wed: 'WE', thu: 'TH', fri: 'FR', sat: 'SA', sun: 'SU' };

/** The most days a month has: February 29 (leap years), the others 30 or 31. */
const longestMonth = (month: number) => daysInMonth(2000, month);

/** The rule's day of the month: monthDay, or the due date's day. */
const dayOf = (repeat: Repeat, dueDate: string) => repeat.monthDay ?? Number(dueDate.slice(8, 10));

/**
 * The RRULE of a repeat rule (docs/product.md, Planning), or null when there is none. The
 * event's DTSTART is the todo's due date, the rule's next occurrence counted from it.
 *
 * Tally puts a day the month lacks on the month's last day (the 31st on the 30th, the 30th on
 * 28 or 29 February). BYSETPOS could say that, but many clients (ical.js, Outlook) read it only
 * with BYDAY, so: the 31st of every month is BYMONTHDAY=-1; a yearly rule's day is -1 when it is
 * the month's last (29 February); and a monthly 29th or 30th is BYMONTHDAY=29 or 30 with the
 * Februaries it skips added as RDATEs (fallbackDates).
 *
 * A rule counted from completion (`from: 'completion'`) has no exact RRULE: its next date depends
 * on when the todo is done. The feed then shows the next occurrence only (the due date), and the
 * event moves when the todo is completed and the feed is fetched again.
 */
export function rruleOf(repeat: Repeat | null, dueDate: string): string | null {
  if (!repeat || repeat.from === 'completion') return null;
  const parts = [`INTERVAL=${repeat.every}`];
  switch (repeat.unit) {
    case 'day':
      return ['FREQ=DAILY', ...parts].join(';');
    case 'week': {
      // Tally's weeks start on Monday; with INTERVAL > 1 and BYDAY, WKST decides which weeks count.
      const days = repeat.weekdays
        ? [...repeat.weekdays]
            .sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b))
            .map((day) => BYDAY[day])
        : [];
      if (days.length) parts.push(`BYDAY=${days.join(',')}`);
      return ['FREQ=WEEKLY', ...parts, 'WKST=MO'].join(';');
    }
    case 'month': {
      if (repeat.nthWeekday) {
        // A 5th weekday that a month lacks falls back to its last one: "5th" is "last" (-1).
        const n = repeat.nthWeekday.n === 5 ? -1 : repeat.nthWeekday.n;
        parts.push(`BYDAY=${n}${BYDAY[repeat.nthWeekday.weekday]}`);
      } else {
        const day = dayOf(repeat, dueDate);
        parts.push(`BYMONTHDAY=${day >= 31 ? -1 : day}`);
      }
      return ['FREQ=MONTHLY', ...parts].join(';');
    }
    case 'year': {
      // The due date's month, on the rule's day, or on its last day when it is shorter.
      const month = Number(dueDate.slice(5, 7));
      const day = dayOf(repeat, dueDate);
      const byMonthDay = day >= longestMonth(month) ? -1 : day;
      return ['FREQ=YEARLY', ...parts, `BYMONTH=${month}`, `BYMONTHDAY=${byMonthDay}`].join(';');
    }
  }
}

/** Monday = 0 … Sunday = 6. */

/** Whether the RRULE itself yields the date (a client may not count an unmatched DTSTART). */
function ruleYields(repeat: Repeat, date: string): boolean {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const last = daysInMonth(year, month);
  switch (repeat.unit) {
    case 'day':
      return true;
    case 'week':
      return (
        !repeat.weekdays?.length ||
        repeat.weekdays.some((weekday) => WEEKDAYS.indexOf(weekday) === weekdayOf(date))
      );
    case 'month': {
      if (repeat.nthWeekday) {
        const { n, weekday } = repeat.nthWeekday;
        if (WEEKDAYS.indexOf(weekday) !== weekdayOf(date)) return false;
        return n === -1 || n === 5 ? day + 7 > last : Math.ceil(day / 7) === n;
      }
      const wanted = dayOf(repeat, date);
      // BYMONTHDAY=-1 for the 31st; 29 and 30 only where the month has them.
      return wanted >= 31 ? day === last : day === wanted;
    }
    case 'year': {
      const wanted = dayOf(repeat, date);
      return wanted >= longestMonth(month) ? day === last : day === wanted;
    }
  }
}

/**
 * The occurrences the RRULE does not yield, as RDATEs: the due date when it is not on the rule
 * (a weekly Monday rule due on a Wednesday; RFC 5545 leaves such a DTSTART undefined, and
 * ical.js, for one, skips it), and for a monthly 29th or 30th the Februaries of the rule's
 * months, on their last day, after the due date, from `fromYear` up to `untilYear`.
 */
export function extraDates(
  repeat: Repeat | null,
  dueDate: string,
  untilYear: number,
  fromYear = 0,
): string[] {
  if (!repeat || repeat.from === 'completion') return [];
  const dates = ruleYields(repeat, dueDate) ? [] : [dueDate];
  if (repeat.unit !== 'month' || repeat.nthWeekday) return dates;
  const day = dayOf(repeat, dueDate);
  if (day !== 29 && day !== 30) return dates;
  // The rule's months are the due date's month and every `every`th one after it; the first
  // counted is the first of them in `fromYear` or later.
  const due = Number(dueDate.slice(0, 4)) * 12 + Number(dueDate.slice(5, 7)) - 1;
  const skipped = Math.max(0, Math.ceil((fromYear * 12 - due) / repeat.every));
  for (
    let index = due + skipped * repeat.every;
    Math.floor(index / 12) <= untilYear;
    index += repeat.every
  ) {
    const [year, month] = [Math.floor(index / 12), (index % 12) + 1];
    const last = daysInMonth(year, month);
    const date = `${pad(year, 4)}-${pad(month)}-${pad(last)}`;
    if (last < day && date > dueDate) dates.push(date);
  }
  return dates;
}

// --- Time zones --------------------------------------------------------------------------------

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at an instant, in seconds (east positive), from Intl's zone data. */
function offsetAt(zone: string, epochMs: number): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    if (offsetFormats.size > 500) offsetFormats.clear();
    offsetFormats.set(zone, format);
  }
  const name = format.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name ?? '');
  if (!match?.[1]) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4] ?? 0);
  return match[1] === '-' ? -seconds : seconds;
}

interface Transition {
  /** The instant (epoch ms) the new offset starts. */
  at: number;
  from: number;
  to: number;
}

const yearTransitions = new Map<string, Transition[]>();

/**
 * The zone's offset changes in one UTC year, found by checking the offset every day and then
 * narrowing each change to the second. Remembered per zone and year: a day-by-day search is too
 * slow to repeat for every event.
 */
function transitionsIn(zone: string, year: number): Transition[] {
  const key = `${zone} ${year}`;
  const cached = yearTransitions.get(key);
  if (cached) return cached;
  const transitions: Transition[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  let before = Date.UTC(year, 0, 1);
  let offset = offsetAt(zone, before);
  for (let after = before + DAY; before < end; before = after, after += DAY) {
    const next = offsetAt(zone, after);
    if (next === offset) continue;
    let low = before;
    let high = after;
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (offsetAt(zone, middle) === offset) low = middle;
      else high = middle;
    }
    transitions.push({ at: high, from: offset, to: next });
    offset = next;
  }
  if (yearTransitions.size > 5000) yearTransitions.clear();
  yearTransitions.set(key, transitions);
  return transitions;
}

/** A UTC offset as TZOFFSETFROM/TO writes it: +0100, -0330, +053030 with seconds. */
function utcOffset(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const hhmm = `${pad(abs / 3600)}${pad((abs % 3600) / 60)}`;
  return `${sign}${hhmm}${abs % 60 ? pad(abs % 60) : ''}`;
}

/**
 * The VTIMEZONE of a zone over these years (sorted, without repeats): one observance per offset
 * change in them (STANDARD, or DAYLIGHT when the offset grows), each starting at its wall-clock
 * time in the offset before it, as RFC 5545 (3.6.5) has it. Explicit changes rather than yearly
 * rules: Intl tells offsets, not rules. After the last year a client keeps the last offset; years
 * left out between two (a calendar object's dates far apart) have no dates to place.
 */
export function vtimezone(zone: string, years: readonly number[]): string[] {
  const first = years[0] ?? 1970;
  const changes = [first - 1, ...years].flatMap((year) => transitionsIn(zone, year));
  return vtimezoneOf(zone, first, changes);
}

/** The VTIMEZONE of vtimezone(), from the zone's transitions in the years it covers. */
function vtimezoneOf(zone: string, fromYear: number, changes: Transition[]): string[] {
  const start = Date.UTC(fromYear, 0, 1) - DAY;
  const startOffset = offsetAt(zone, start);
  const transitions = changes.filter((t) => t.at > start);
  const observance = (kind: string, at: number, from: number, to: number) => [
    `BEGIN:${kind}`,
    `DTSTART:${wallDateTime(at + from * 1000)}`,
    `TZOFFSETFROM:${utcOffset(from)}`,
    `TZOFFSETTO:${utcOffset(to)}`,
    `END:${kind}`,
  ];
  const first = transitions[0];
  // Starting in summer time when the first change lowers the offset.
  const firstKind = first && first.to < first.from ? 'DAYLIGHT' : 'STANDARD';
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${zone}`,
    ...observance(firstKind, start, startOffset, startOffset),
    ...transitions.flatMap((t) =>
      observance(t.to > t.from ? 'DAYLIGHT' : 'STANDARD', t.at, t.from, t.to),
    ),
    'END:VTIMEZONE',
  ];
}

// --- The calendar ------------------------------------------------------------------------------

/** A date (and the due time) as the event's DTSTART or RDATE writes it, with its parameters. */
function dateValue(
  date: string,
  time: string | null,
  zone: string,
): { params: string; value: string } {
  if (time === null) return { params: ';VALUE=DATE', value: basicDate(date) };
  const local = `${basicDate(date)}T${basicTime(time)}`;
  // In UTC there is nothing to describe: a UTC DATE-TIME, no VTIMEZONE.
  return zone === 'UTC'
    ? { params: '', value: `${local}Z` }
    : { params: `;TZID=${zone}`, value: local };
}

/** Years after this one (or after a later due date) whose RDATEs the feed writes. */
const RDATE_YEARS_AHEAD = 2;
/** Years after this one (or after the last timed due date) the VTIMEZONE covers. */
const ZONE_YEARS_AHEAD = 10;
/** The most years one VTIMEZONE spells out (about 4 ms of Intl each, once per zone and year). */
const ZONE_YEARS_MAX = 100;

const joinLines = (lines: string[]) => lines.map(foldLine).join(CRLF) + CRLF;

/**
 * The whole feed. Timed events use TZID with the zone's VTIMEZONE (not UTC times computed in the
 * zone), so a repeating 09:00 stays at 09:00 across summer time. No METHOD: DTSTAMP is then the
 * event's last change (RFC 5545, 3.8.7.2), which keeps the file the same until a todo changes.
 */
/** CATEGORIES: the group, then the tags; each escaped (a comma in one is text, not a split). */
function categoriesOf(event: FeedEvent): string[] {
  const names = [...(event.category ? [event.category] : []), ...(event.tags ?? [])];
  return names.length > 0 ? [`CATEGORIES:${names.map(escapeText).join(',')}`] : [];
}

export function renderCalendar(calendar: FeedCalendar): string {
  return [...calendarChunks(calendar)].join('');
}

/**
 * The feed in pieces, each a few lines of text (or empty): a caller may pause between any two,
 * so a large feed never holds the event loop for long (calendar/feed-cache.ts). Its size is
 * bounded by the number of events whatever their dates: each event's RDATEs are the ones from
 * this year to two years after the later of this year and its due date (at most a few per
 * event; the yearly fetch moves them on), and the VTIMEZONE spans at most 100 years.
 */
export function* calendarChunks({ name, timeZone, events, now }: FeedCalendar): Generator<string> {
  yield joinLines([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Tally//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    `NAME:${escapeText(name)}`,
    `X-WR-CALNAME:${escapeText(name)}`,
    `X-WR-TIMEZONE:${timeZone}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ]);
  const thisYear = new Date(now).getUTCFullYear();
  const yearOf = (event: FeedEvent) => Number(event.date.slice(0, 4));
  const timedYears = events
    .filter((event) => event.time !== null)
    .map((event) => Math.min(yearOf(event), Number((event.startDate ?? event.date).slice(0, 4))));
  if (timeZone !== 'UTC' && timedYears.length > 0) {
    // Zone changes run ten years past now or the last timed due date; the next fetch moves them.
    const fromYear = Math.min(...timedYears);
    const toYear = Math.min(
      9999,
      Math.max(thisYear, ...timedYears) + ZONE_YEARS_AHEAD,
      fromYear + ZONE_YEARS_MAX,
    );
    const changes: Transition[] = [];
    for (let year = fromYear - 1; year <= toYear; year += 1) {
      changes.push(...transitionsIn(timeZone, year));
      yield '';
    }
    yield joinLines(vtimezoneOf(timeZone, fromYear, changes));
  }
  for (const event of events) {
    const due = dateValue(event.date, event.time, timeZone);
    const spans = !event.repeat && !!event.startDate && event.startDate < event.date;
    // DTSTART and DTEND take the same value type: a timed due time starts at 00:00 of the start
    // day; an all-day one ends (exclusively) the day after the due date.
    const start =
      spans && event.startDate
        ? dateValue(event.startDate, event.time === null ? null : '00:00', timeZone)
        : due;
    const end =
      event.time === null ? { params: due.params, value: basicDate(dayAfter(event.date)) } : due;
    const rrule = rruleOf(event.repeat, event.date);
    const untilYear = Math.min(9999, Math.max(thisYear, yearOf(event)) + RDATE_YEARS_AHEAD);
    const extra = extraDates(event.repeat, event.date, untilYear, thisYear).map(
      (date) => dateValue(date, event.time, timeZone).value,
    );
    yield joinLines([
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${utcDateTime(event.modifiedAt)}`,
      `LAST-MODIFIED:${utcDateTime(event.modifiedAt)}`,
      `DTSTART${start.params}:${start.value}`,
      ...(spans ? [`DTEND${end.params}:${end.value}`] : []),
      ...(rrule ? [`RRULE:${rrule}`] : []),
      ...(extra.length ? [`RDATE${start.params}:${extra.join(',')}`] : []),
      `SUMMARY:${escapeText(event.summary)}`,
      ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
      ...categoriesOf(event),
      ...(event.priority ? [`PRIORITY:${ICS_PRIORITY[event.priority] ?? 0}`] : []),
      ...(event.relatedTo ? [`RELATED-TO:${event.relatedTo}`] : []),
      // A todo does not make its owner busy.
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    ]);
  }
  yield joinLines(['END:VCALENDAR']);
}
