import * as chrono from 'chrono-node/en';
import { addDays, daysInMonth, pad, parseDate, WEEKDAYS, weekdayOf } from './dates.js';
import type { Weekday } from './dates.js';
import { ORDINAL_WORDS, readQuickGroup, readQuickPriority, readQuickTags } from './quick-add.js';
import { type QuickAddLanguage, quickAddLanguage } from './quick-add-languages.js';
import type { Repeat } from './todos.js';

/**
 * Quick add's whole reader (docs/product.md, Todos screen; decision 150): a due date, a time, a
 * group (#Name), a repeat ("every …"), tags (@name), a priority (p1-p3, !-!!!) and a start date
 * ("starts Monday") out of a typed title. One pure copy for the web app's quick add (loaded lazily: chrono-node is most of its
 * weight), the e-mail to task subject and the MCP `add` text, so the same words make the same todo
 * wherever they were typed. `now` and the user's zone come in as inputs.
 *
 * It errs on the side of reading nothing: a month name alone ("march on"), a three-letter weekday
 * ("sun roof"), a time without minutes or am/pm ("at 5"), "now", evening/morning words and past
 * dates are left in the title; so is a date word used as an ordinary word ("Sunday school",
 * "Today view") and a time that names a thing ("the 9:00 standup").
 */

type QuickChipKind = 'date' | 'time' | 'group' | 'repeat' | 'tag' | 'priority' | 'start';

interface QuickChip {
  kind: QuickChipKind;
  /**
   * What was read, for the chip's label: the date or start date (YYYY-MM-DD), the time (HH:MM),
   * the group's name, the repeat's words, the tag's name or the priority (1-3).
   */
  value: string;
  /** The words it was read from, which removing the chip leaves in the title; '' if implied. */
  text: string;
  /** Removing the chip remembers these keys, so the same words are not read again. */
  dismiss: string[];
}

export interface QuickAddText<G extends { name: string }> {
  /** The title to save: what was typed less the words understood (as typed when nothing was). */
  title: string;
  dueDate?: string;
  dueTime?: string;
  group?: G;
  repeat?: Repeat;
  tags?: string[];
  priority?: 1 | 2 | 3;
  startDate?: string;
  /**
   * The first `#Name` that names none of the groups, which stays in the title: a screen can
   * offer to create that group.
   */
  unknownGroup?: string;
  chips: QuickChip[];
}

interface QuickAddTextOptions<G extends { name: string }> {
  groups: readonly G[];
  now: Date;
  /** The user's IANA zone, which says what day and hour `now` is; the process's own if absent. */
  timeZone?: string | undefined;
  /** Month before day ("12/4" is 4 December unless true), as written in the United States. */
  monthFirst?: boolean;
  /** Keys of removed chips. */
  dismissed?: ReadonlySet<string>;
  /** A due date is set in the form already: a time or a repeat then needs no date of its own. */
  hasDate?: boolean;
  /**
   * The account's or the screen's language (a BCP 47 tag): its dates, times and repeat phrases
   * are read as well as English ones (decision 180). English alone when absent.
   */
  language?: string | null | undefined;
}

type Range = [start: number, end: number];

const keyOf = (kind: string, text: string) => `${kind}:${text.trim().toLowerCase()}`;

/** YYYY-MM-DD of a year, month and day, the day kept within the month. */
const dateFrom = (year: number, month: number, day: number) =>
  `${year}-${pad(month)}-${pad(Math.min(day, daysInMonth(year, month)))}`;

// ---------------------------------------------------------------------------------------------
// "every …"

const DAY_WORDS: Record<string, Weekday> = {};
for (const [day, words] of Object.entries({
  mon: ['monday', 'mon'],
  tue: ['tuesday', 'tues', 'tue'],
  wed: ['wednesday', 'wed'],
  thu: ['thursday', 'thurs', 'thur', 'thu'],
  fri: ['friday', 'fri'],
  sat: ['saturday', 'sat'],
  sun: ['sunday', 'sun'],
})) {
  for (const word of words) DAY_WORDS[word] = day as Weekday;
}
const DAY = `(?:${Object.keys(DAY_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|')})s?`;
const dayOfWord = (word: string): Weekday | undefined =>
  DAY_WORDS[word.toLowerCase().replace(/s$/, '')] ?? DAY_WORDS[word.toLowerCase()];

const NTH = ORDINAL_WORDS;

const END = '(?![\\w#])';
const FROM_COMPLETION = new RegExp(
  `\\s+(?:from|after)\\s+(?:completion|completing|done)${END}`,
  'iy',
);
const REPEAT_PATTERNS: { pattern: RegExp; read: (match: RegExpExecArray) => Repeat | null }[] = [
  {
    // every weekday / every workday
    pattern: new RegExp(`every\\s+(?:week|work)days?${END}`, 'iy'),
    read: () => ({
      every: 1,
      unit: 'week',
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      from: 'due',
    }),
  },
  {
    pattern: new RegExp(`every\\s+weekends?${END}`, 'iy'),
    read: () => ({ every: 1, unit: 'week', weekdays: ['sat', 'sun'], from: 'due' }),
  },
  {
    // every first Monday (of the month), every last Friday
    pattern: new RegExp(
      `every\\s+(${Object.keys(NTH).join('|')})\\s+(${DAY})(?:\\s+of\\s+the\\s+month)?${END}`,
      'iy',
    ),
    read: (match) => {
      const n = NTH[(match[1] ?? '').toLowerCase()];
      const weekday = dayOfWord(match[2] ?? '');
      return n && weekday
        ? { every: 1, unit: 'month', nthWeekday: { n, weekday }, from: 'due' }
        : null;
    },
  },
  {
    // every 15th (of the month)
    pattern: new RegExp(
      `every\\s+(\\d{1,2})(?:st|nd|rd|th)(?:\\s+of\\s+the\\s+month)?${END}`,
      'iy',
    ),
    read: (match) => {
      const day = Number(match[1]);
      return day >= 1 && day <= 31 ? { every: 1, unit: 'month', monthDay: day, from: 'due' } : null;
    },
  },
  {
    // every Monday, every mon and thu, every other Friday
    pattern: new RegExp(
      `every\\s+(other\\s+)?(${DAY}(?:\\s*(?:,|and|&)\\s*(?:and\\s+)?${DAY})*)${END}`,
      'iy',
    ),
    read: (match) => {
      const words = (match[2] ?? '').split(/\s*(?:,|&|\band\b)\s*/i).filter(Boolean);
      const days = [...new Set(words.map(dayOfWord))];
      if (days.some((day) => day === undefined)) return null;
      return {
        every: match[1] ? 2 : 1,
        unit: 'week',
        weekdays: WEEKDAYS.filter((day) => days.includes(day)),
        from: 'due',
      };
    },
  },
  {
    // every day, every 2 weeks, every other month, every year; "on day 15" / "on the 15th"
    pattern: new RegExp(
      `every\\s+(?:(other)\\s+|(\\d{1,3})\\s+)?(day|week|month|year)s?` +
        `(?:\\s+on\\s+(?:day\\s+|the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?)?${END}`,
      'iy',
    ),
    read: (match) => {
      const every = match[1] ? 2 : match[2] ? Number(match[2]) : 1;
      const unit = (match[3] ?? '').toLowerCase() as Repeat['unit'];
      if (every < 1 || every > 365) return null;
      const monthDay = match[4] ? Number(match[4]) : undefined;
      if (monthDay !== undefined) {
        if (unit !== 'month' || monthDay < 1 || monthDay > 31) return null;
        return { every, unit, monthDay, from: 'due' };
      }
      return { every, unit, from: 'due' };
    },
  },
];

/** The first "every …" phrase at a word start, with its range. */
function readRepeat(text: string, dismissed: ReadonlySet<string>) {
  for (const start of [...text.matchAll(/\bevery\b/gi)].map((match) => match.index)) {
    for (const { pattern, read } of REPEAT_PATTERNS) {
      pattern.lastIndex = start;
      const match = pattern.exec(text);
      if (!match) continue;
      let repeat = read(match);
      if (!repeat) continue;
      let end = start + match[0].length;
      FROM_COMPLETION.lastIndex = end;
      const completion = FROM_COMPLETION.exec(text);
      if (completion) {
        repeat = { ...repeat, from: 'completion' };
        end += completion[0].length;
      }
      const words = text.slice(start, end);
      if (dismissed.has(keyOf('repeat', words))) break;
      return { repeat, range: [start, end] as Range, words };
    }
  }
  return null;
}

/** The earliest of the language's repeat phrases (the longest of those starting there). */
function readLocalRepeat(text: string, language: QuickAddLanguage, dismissed: ReadonlySet<string>) {
  let best: { repeat: Repeat; range: Range; words: string } | null = null;
  for (const { pattern, read } of language.repeats) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const repeat = read(match);
      const words = match[0];
      if (!repeat || dismissed.has(keyOf('repeat', words))) continue;
      const range: Range = [match.index, match.index + words.length];
      if (
        !best ||
        range[0] < best.range[0] ||
        (range[0] === best.range[0] && range[1] > best.range[1])
      ) {
        best = { repeat, range, words };
      }
      break;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Dates and times (chrono-node)

/** A clock time as written: with minutes ("9:00", "17:30") or am/pm ("9pm", "9:30 a.m."). */
const TIME = /(?:\bat\s+)?\b(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?(?![\w:])/gi;
const FULL_WEEKDAY = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/i;
const RELATIVE = /^(?:in|next)\b/i;
/** Casual words chrono reads that Tally would rather leave alone. */
const ACCEPTED_CASUAL = new Set([
  'casualReference/today',
  'casualReference/tomorrow',
  'casualReference/tonight',
]);
/** A date said in one word, which can also be an ordinary word: "Sunday school", "Today view". */
const ONE_WORD_DATE = /^(?:today|tomorrow|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$/i;
/**
 * The words that may follow a one-word date that is meant as a date ("Call mom tomorrow about
 * the trip"); any other word after it makes it part of a name ("Ask Sunday school").
 */
const AFTER_DATE = new Set(
  (
    'about after and at before but by for from if in on or please re regarding so then to until ' +
    'via with'
  ).split(' '),
);
/** "starts Monday", "start on Dec 4", "starting tomorrow": the day a todo shows from. */
const START_WORDS = /\bstart(?:s|ing)?(?:\s+on)?\s+$/i;
/** A word that says the date that follows is the due date, and leaves the title with it. */
const BEFORE_DATE = /\b(?:by|due)\s+$/i;

let dayFirstParser: chrono.Chrono | undefined;

/**
 * chrono's day-first (British) reading, except that "Dec 12" stays 12 December: chrono's own takes
 * a two-digit number after a month name for the year (2012), which no one typing a todo means.
 */
function dayFirst(): chrono.Chrono {
  if (!dayFirstParser) {
    const configuration = chrono.configuration.createCasualConfiguration(true);
    for (const parser of configuration.parsers) {
      if ('shouldSkipYearLikeDate' in parser) parser.shouldSkipYearLikeDate = false;
    }
    dayFirstParser = new chrono.Chrono(configuration);
  }
  return dayFirstParser;
}

interface Wall {
  /** The user's calendar date and clock time of `now`. */
  today: string;
  time: string;
  /** A Date whose local fields are that date and time: what chrono reads relative to. */
  reference: Date;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar fields of a moment in a zone; one this runtime does not know reads as UTC. */
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = {
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  };
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone });
  } catch {
    // A client's header or an old setting can name a zone that does not exist.
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
  }
}

/** The date and clock time `now` is in `timeZone` (the process's zone when absent). */
function wallOf(now: Date, timeZone: string | undefined): Wall {
  let fields = {
    year: now.getFullYear(),
    month: now.getMonth() + 1,
    day: now.getDate(),
    hour: now.getHours(),
    minute: now.getMinutes(),
  };
  if (timeZone) {
    let format = zoneFormats.get(timeZone);
    if (!format) {
      format = zoneFormat(timeZone);
      // A handful of zones are in use at a time; a bound keeps a stream of odd ones from growing it.
      if (zoneFormats.size >= 64) zoneFormats.clear();
      zoneFormats.set(timeZone, format);
    }
    const parts = format.formatToParts(now);
    const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
    fields = {
      year: part('year'),
      month: part('month'),
      day: part('day'),
      hour: part('hour'),
      minute: part('minute'),
    };
  }
  const { year, month, day, hour, minute } = fields;
  return {
    today: dateFrom(year, month, day),
    time: `${pad(hour)}:${pad(minute)}`,
    reference: new Date(year, month - 1, day, hour, minute),
  };
}

/** The Monday after today: "next week" as Todoist reads it. */
const nextMonday = (today: string) => addDays(today, 7 - weekdayOf(today));

interface DateReading {
  /** Where its words start: of an English and a language's reading the later one wins. */
  at: number;
  date: string;
  /** Whether the date was written, or only follows from a time ("17:00": today or tomorrow). */
  written: boolean;
  time?: string;
  dateRanges: Range[];
  timeRange?: Range;
  words: string;
}

function readDateTime(
  text: string,
  wall: Wall,
  monthFirst: boolean,
  dismissed: ReadonlySet<string>,
  hasDate: boolean,
): DateReading | null {
  const { today } = wall;
  // Of two date phrases the last one wins ("Wednesday, no, Monday"): a correction comes later.
  let last: DateReading | null = null;
  const parser = monthFirst ? chrono.casual : dayFirst();
  for (const result of parser.parse(text, wall.reference, { forwardDate: true })) {
    const words = result.text;
    // A removed date takes its time along, unless the form has a date of its own for the time.
    const dateDismissed = dismissed.has(keyOf('date', words));
    if (dateDismissed && !hasDate) continue;
    const tags = result.tags();
    const casual = [...tags].filter((tag) => tag.startsWith('casualReference/'));
    if (casual.some((tag) => !ACCEPTED_CASUAL.has(tag))) continue;
    if (tags.has('result/relativeDateAndTime')) continue;
    const start = result.start;
    const before = text.slice(0, result.index);
    const end = result.index + words.length;
    // A start date left in the title (its chip removed) is no due date either.
    if (START_WORDS.test(before)) continue;

    let time: string | undefined;
    let timeRange: Range | undefined;
    if (start.isCertain('hour')) {
      const match = [...words.matchAll(TIME)].find((m) => m[2] !== undefined || m[3] !== undefined);
      // A time we would have to guess ("at 5": morning or afternoon?) leaves the whole phrase.
      if (!match) continue;
      // "the 9:00 standup" names a meeting; it is no time to do the todo at.
      if (match.index === 0 && /\bthe\s+$/i.test(before)) continue;
      timeRange = [result.index + match.index, result.index + match.index + match[0].length];
      // A removed time chip leaves its words in the title, and the date is read without them.
      if (!dismissed.has(keyOf('time', words))) {
        time = `${pad(start.get('hour') ?? 0)}:${pad(start.get('minute') ?? 0)}`;
      }
    }
    const dateWords = timeRange
      ? words.slice(0, timeRange[0] - result.index) + words.slice(timeRange[1] - result.index)
      : words;
    const said = dateWords.trim();
    // A one-word date followed by an ordinary word is part of a name: "Sunday school".
    if (ONE_WORD_DATE.test(said) && !timeRange && !BEFORE_DATE.test(before)) {
      const next = /^\s*([A-Za-z][\w'-]*)/.exec(text.slice(end))?.[1];
      if (next !== undefined && !AFTER_DATE.has(next.toLowerCase())) continue;
    }
    let date = dateFrom(start.get('year') ?? 0, start.get('month') ?? 0, start.get('day') ?? 0);
    let explicit =
      start.isCertain('day') &&
      start.isCertain('month') &&
      (!tags.has('result/relativeDate') || RELATIVE.test(words));
    if (/^next\s+week$/i.test(said)) {
      date = nextMonday(today);
      explicit = true;
    }
    const weekday = !explicit && start.isCertain('weekday') && FULL_WEEKDAY.test(dateWords);
    const written = (explicit || weekday) && !dateDismissed;
    if (!written && !time) continue;
    if (date < today) continue;

    // "by Dec 12", "due Friday": the word goes with the date.
    const lead = written ? (BEFORE_DATE.exec(before)?.[0].length ?? 0) : 0;
    const dateRanges: Range[] = !written
      ? []
      : timeRange
        ? [
            [result.index - lead, timeRange[0]],
            [timeRange[1], end],
          ]
        : [[result.index - lead, end]];
    last = {
      at: result.index,
      date,
      written,
      ...(time && timeRange ? { time, timeRange } : {}),
      dateRanges: dateRanges.filter(([from, to]) => text.slice(from, to).trim() !== ''),
      words,
    };
  }
  return last;
}

/**
 * A date and time in the language (chrono's parser of it), read as the English reader does but
 * for English's own guards: the language's time forms and ordinary words instead; relative
 * phrases ("in 3 Tagen") are left in the title.
 */
function readLocalDateTime(
  text: string,
  wall: Wall,
  language: QuickAddLanguage,
  dismissed: ReadonlySet<string>,
  hasDate: boolean,
): DateReading | null {
  let last: DateReading | null = null;
  for (const result of language.parser.parse(text, wall.reference, { forwardDate: true })) {
    const words = result.text.trimEnd();
    const dateDismissed = dismissed.has(keyOf('date', words));
    if (dateDismissed && !hasDate) continue;
    const tags = result.tags();
    if (tags.has('result/relativeDateAndTime') || tags.has('result/relativeDate')) continue;
    const before = text.slice(0, result.index);
    const end = result.index + words.length;
    if (language.ordinary(words, before, text.slice(end))) continue;
    // A start date left in the title (its chip removed) is no due date either.
    if (startWordsAround(language, before, text.slice(end))) continue;
    const start = result.start;
    let time: string | undefined;
    let timeRange: Range | undefined;
    if (start.isCertain('hour')) {
      language.time.lastIndex = 0;
      const match = language.time.exec(words);
      // A time we would have to guess (a bare number) leaves the whole phrase.
      if (!match) continue;
      timeRange = [result.index + match.index, result.index + match.index + match[0].length];
      if (!dismissed.has(keyOf('time', words))) {
        time = `${pad(start.get('hour') ?? 0)}:${pad(start.get('minute') ?? 0)}`;
      }
    }
    const date = dateFrom(start.get('year') ?? 0, start.get('month') ?? 0, start.get('day') ?? 0);
    const written =
      ((start.isCertain('day') && start.isCertain('month')) || start.isCertain('weekday')) &&
      !dateDismissed;
    if (!written && !time) continue;
    if (date < wall.today) continue;
    // "bis 4. Dezember", "le 4 décembre": the word goes with the date.
    const lead = written ? (language.lead?.exec(before)?.[0].length ?? 0) : 0;
    const dateRanges: Range[] = !written
      ? []
      : timeRange
        ? [
            [result.index - lead, timeRange[0]],
            [timeRange[1], end],
          ]
        : [[result.index - lead, end]];
    last = {
      at: result.index,
      date,
      written,
      ...(time && timeRange ? { time, timeRange } : {}),
      dateRanges: dateRanges.filter(([from, to]) => text.slice(from, to).trim() !== ''),
      words,
    };
  }
  return last;
}

/**
 * The start date: a written date right after "start", "starts" or "starting" (never a time,
 * never a past day). The start word leaves the title with it.
 */
function readStartDate(
  text: string,
  wall: Wall,
  monthFirst: boolean,
  dismissed: ReadonlySet<string>,
): { date: string; range: Range; words: string } | null {
  if (!/\bstart/i.test(text)) return null;
  const parser = monthFirst ? chrono.casual : dayFirst();
  for (const result of parser.parse(text, wall.reference, { forwardDate: true })) {
    const lead = START_WORDS.exec(text.slice(0, result.index));
    if (!lead || result.start.isCertain('hour')) continue;
    const tags = result.tags();
    if ([...tags].some((tag) => tag.startsWith('casualReference/') && !ACCEPTED_CASUAL.has(tag))) {
      continue;
    }
    const said = result.text.trim();
    const start = result.start;
    let date = dateFrom(start.get('year') ?? 0, start.get('month') ?? 0, start.get('day') ?? 0);
    const written =
      (start.isCertain('day') && start.isCertain('month')) ||
      (start.isCertain('weekday') && FULL_WEEKDAY.test(said)) ||
      /^next\s+week$/i.test(said);
    if (/^next\s+week$/i.test(said)) date = nextMonday(wall.today);
    if (!written || date < wall.today) continue;
    const range: Range = [result.index - lead[0].length, result.index + result.text.length];
    const words = text.slice(...range);
    if (dismissed.has(keyOf('start', words))) continue;
    return { date, range, words };
  }
  return null;
}

/** How far the language's start words reach before and after a date, or null without them. */
function startWordsAround(
  language: QuickAddLanguage,
  before: string,
  after: string,
): { lead: number; trail: number } | null {
  const lead = language.startBefore?.exec(before)?.[0].length ?? 0;
  const trail = language.startAfter?.exec(after)?.[0].length ?? 0;
  return lead + trail > 0 ? { lead, trail } : null;
}

/**
 * The start date in the language: a written date with the language's start words ("ab
 * morgen", "a partir del viernes", "明日から"), never a time, a relative phrase or a past day.
 */
function readLocalStartDate(
  text: string,
  wall: Wall,
  language: QuickAddLanguage,
  dismissed: ReadonlySet<string>,
): { date: string; range: Range; words: string } | null {
  if (!language.startBefore && !language.startAfter) return null;
  for (const result of language.parser.parse(text, wall.reference, { forwardDate: true })) {
    const said = result.text.trimEnd();
    const end = result.index + said.length;
    const around = startWordsAround(language, text.slice(0, result.index), text.slice(end));
    // "ab morgen bis Freitag" is one range to chrono: neither date is read rather than one lost.
    if (!around || result.start.isCertain('hour') || result.end) continue;
    const tags = result.tags();
    if (tags.has('result/relativeDateAndTime') || tags.has('result/relativeDate')) continue;
    const start = result.start;
    const written =
      (start.isCertain('day') && start.isCertain('month')) || start.isCertain('weekday');
    const date = dateFrom(start.get('year') ?? 0, start.get('month') ?? 0, start.get('day') ?? 0);
    if (!written || date < wall.today) continue;
    const range: Range = [result.index - around.lead, end + around.trail];
    const words = text.slice(...range);
    if (dismissed.has(keyOf('start', words))) continue;
    return { date, range, words };
  }
  return null;
}

/** The first `#Name` (up to a space or punctuation) left after the groups were read. */
function readUnknownGroup(text: string): string | undefined {
  return /(?:^|\s)#([^\s#.,;:!?()]{1,60})/.exec(text)?.[1];
}

// ---------------------------------------------------------------------------------------------
// The first occurrence of a repeat that has no date of its own

const weekdayOfDate = (date: string): Weekday => WEEKDAYS[weekdayOf(date)] ?? 'mon';

function nthWeekdayIn(year: number, month: number, nth: NonNullable<Repeat['nthWeekday']>): string {
  const target = WEEKDAYS.indexOf(nth.weekday);
  const indexOf = (date: string) => WEEKDAYS.indexOf(weekdayOfDate(date));
  if (nth.n === -1) {
    const last = dateFrom(year, month, 31);
    return addDays(last, -((indexOf(last) - target + 7) % 7));
  }
  const first = dateFrom(year, month, 1);
  const date = addDays(first, ((target - indexOf(first) + 7) % 7) + 7 * (nth.n - 1));
  return parseDate(date)?.month === month ? date : addDays(date, -7);
}

/**
 * The first day from today on that the rule falls on; from tomorrow on when `todayPassed` (its
 * time of day is already over).
 */
export function firstOccurrence(repeat: Repeat, today: string, todayPassed = false): string {
  if (todayPassed) return firstOccurrence(repeat, addDays(today, 1));
  const parts = parseDate(today);
  if (!parts) return today;
  const next =
    parts.month === 12
      ? { year: parts.year + 1, month: 1 }
      : { year: parts.year, month: parts.month + 1 };
  if (repeat.unit === 'week' && repeat.weekdays?.length) {
    let date = today;
    while (!repeat.weekdays.includes(weekdayOfDate(date))) date = addDays(date, 1);
    return date;
  }
  if (repeat.unit === 'month' && (repeat.nthWeekday || repeat.monthDay)) {
    const inMonth = (year: number, month: number) =>
      repeat.nthWeekday
        ? nthWeekdayIn(year, month, repeat.nthWeekday)
        : dateFrom(year, month, repeat.monthDay ?? 1);
    const thisMonth = inMonth(parts.year, parts.month);
    return thisMonth >= today ? thisMonth : inMonth(next.year, next.month);
  }
  return today;
}

// ---------------------------------------------------------------------------------------------

/** What the text says, as chips, and the title without the words understood. */
export function readQuickAddText<G extends { name: string }>(
  input: string,
  options: QuickAddTextOptions<G>,
): QuickAddText<G> {
  const dismissed = options.dismissed ?? new Set<string>();
  const wall = wallOf(options.now, options.timeZone);
  const { today } = wall;
  let masked = input;
  const mask = ([start, end]: Range) => {
    masked = masked.slice(0, start) + ' '.repeat(end - start) + masked.slice(end);
  };

  const tags = readQuickTags(masked, dismissed);
  for (const tag of tags) mask(tag.range);
  const priority = readQuickPriority(masked, dismissed);
  if (priority) mask(priority.range);
  const language = quickAddLanguage(options.language);
  const repeat =
    (language ? readLocalRepeat(masked, language, dismissed) : null) ??
    readRepeat(masked, dismissed);
  if (repeat) mask(repeat.range);
  const group = readQuickGroup(masked, options.groups, dismissed);
  if (group) mask(group.range);
  const unknownGroup = readUnknownGroup(masked);
  const start =
    (language ? readLocalStartDate(masked, wall, language, dismissed) : null) ??
    readStartDate(masked, wall, options.monthFirst ?? false, dismissed);
  if (start) mask(start.range);
  const hasDate = options.hasDate ?? false;
  const english = readDateTime(masked, wall, options.monthFirst ?? false, dismissed, hasDate);
  const local = language ? readLocalDateTime(masked, wall, language, dismissed, hasDate) : null;
  // The phrase that holds the other wins ("morgen um 9:30" over English's "9:30", "tomorrow
  // 9:00" over the language's "9:00"); else the later one, as within one reader.
  const endOf = (reading: DateReading) => reading.at + reading.words.length;
  const holds = (a: DateReading, b: DateReading) => a.at <= b.at && endOf(a) >= endOf(b);
  const when =
    local && english
      ? holds(local, english)
        ? local
        : holds(english, local)
          ? english
          : local.at > english.at
            ? local
            : english
      : (local ?? english);

  const ranges: Range[] = [];
  const chips: QuickChip[] = [];
  const result: QuickAddText<G> = { title: input, chips };
  const timeKey = when ? keyOf('time', when.words) : '';
  const repeatKey = repeat ? keyOf('repeat', repeat.words) : '';

  let dueDate: string | undefined;
  if (when?.written) {
    dueDate = when.date;
    ranges.push(...when.dateRanges);
    chips.push({
      kind: 'date',
      value: dueDate,
      text: when.dateRanges.map(([from, to]) => input.slice(from, to).trim()).join(' '),
      // A time needs its date: both go back.
      dismiss: [keyOf('date', when.words)],
    });
  } else if (!hasDate && (when?.time || repeat)) {
    // A time or a repeat alone: the date follows from it, shown as a chip of its own. A repeat
    // whose time has passed today starts at its next occurrence, not overdue.
    const passed = when?.time !== undefined && when.time <= wall.time;
    dueDate = repeat ? firstOccurrence(repeat.repeat, today, passed) : when?.date;
    if (dueDate) {
      chips.push({
        kind: 'date',
        value: dueDate,
        text: '',
        dismiss: [...(when?.time ? [timeKey] : []), ...(repeat ? [repeatKey] : [])],
      });
    }
  }
  if (dueDate) result.dueDate = dueDate;
  if (when?.time && when.timeRange && (dueDate || hasDate)) {
    result.dueTime = when.time;
    ranges.push(when.timeRange);
    chips.push({
      kind: 'time',
      value: when.time,
      text: input.slice(...when.timeRange).trim(),
      dismiss: [timeKey],
    });
  }
  if (group) {
    result.group = group.group;
    ranges.push(group.range);
    chips.push({
      kind: 'group',
      value: group.group.name,
      text: group.words,
      dismiss: [keyOf('group', group.words)],
    });
  }
  if (repeat && (dueDate || hasDate)) {
    result.repeat = repeat.repeat;
    ranges.push(repeat.range);
    chips.push({ kind: 'repeat', value: repeat.words, text: repeat.words, dismiss: [repeatKey] });
  }

  if (tags.length > 0) {
    result.tags = tags.map((tag) => tag.name);
    for (const tag of tags) {
      ranges.push(tag.range);
      chips.push({ kind: 'tag', value: tag.name, text: `@${tag.name}`, dismiss: [tag.key] });
    }
  }
  if (start) {
    result.startDate = start.date;
    ranges.push(start.range);
    chips.push({
      kind: 'start',
      value: start.date,
      text: input.slice(...start.range).trim(),
      dismiss: [keyOf('start', start.words)],
    });
  }
  if (priority) {
    result.priority = priority.priority;
    ranges.push(priority.range);
    chips.push({
      kind: 'priority',
      value: String(priority.priority),
      text: priority.words,
      dismiss: [priority.key],
    });
  }

  let title = input;
  for (const [start, end] of [...ranges].sort((a, b) => b[0] - a[0])) {
    title = `${title.slice(0, start)} ${title.slice(end)}`;
  }
  title = title.replace(/\s+/g, ' ').trim();
  // A phrase taken from either end leaves no stray comma or colon there ("Tomorrow: call mom").
  if (ranges.some(([start]) => input.slice(0, start).trim() === '')) {
    title = title.replace(/^[,:;]\s*/, '');
  }
  if (ranges.some(([, end]) => input.slice(end).trim() === '')) {
    title = title.replace(/\s*[,:;]$/, '');
  }
  const unknown = unknownGroup === undefined ? {} : { unknownGroup };
  // Nothing is taken from a title that would be left empty: "Tomorrow" is saved as typed.
  if (title === '' || chips.length === 0) return { title: input.trim(), chips: [], ...unknown };
  Object.assign(result, unknown);
  result.title = title;
  return result;
}
