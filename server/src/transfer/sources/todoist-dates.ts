import { WEEKDAYS, type Repeat, type Weekday } from '@tally/contract';
import { addDays, daysInMonth, formatDate, pad, parseDate, weekdayOf } from '@tally/contract/dates';
import { ORDINAL_WORDS } from '@tally/contract/quick-add';

/**
 * The DATE column of Todoist's CSV template: what a person typed in Todoist, in English
 * (DATE_LANG en), e.g. "tomorrow", "Oct 9 2026 10:00", "2026-10-09", "every day",
 * "every! 2 weeks", "every mon, fri at 9am", "every 15th", "every last friday". Relative dates are
 * read from `today`, the caller's day. A repeat's first date is its first occurrence from today.
 * Anything else is not understood (null), and the todo comes without a date.
 */

export interface TodoistDate {
  dueDate: string;
  dueTime: string | null;
  repeat: Repeat | null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const WEEKDAY = '(mon|tue|wed|thu|fri|sat|sun)[a-z]*';

const weekdayNamed = (name: string): Weekday | null =>
  WEEKDAYS.find((day) => name.startsWith(day)) ?? null;

/** The first day from `today` on (today included) that is the given weekday. */
const nextWeekday = (today: string, day: Weekday) =>
  addDays(today, (WEEKDAYS.indexOf(day) - weekdayOf(today) + 7) % 7);

/** A month and day without a year: this year's, or next year's once it has passed. */
function nextMonthDay(today: string, month: number, day: number): string | null {
  const year = Number(today.slice(0, 4));
  for (const candidate of [year, year + 1]) {
    const date = formatDate(candidate, month, day);
    if (parseDate(date) && date >= today) return date;
  }
  return null;
}

/** The nth weekday of a month (n = -1: the last one); null for a fifth one it does not have. */
function nthWeekdayOf(year: number, month: number, n: number, day: Weekday): string | null {
  const target = WEEKDAYS.indexOf(day);
  if (n === -1) {
    const last = formatDate(year, month, daysInMonth(year, month));
    return addDays(last, -((weekdayOf(last) - target + 7) % 7));
  }
  const first = formatDate(year, month, 1);
  const date = addDays(first, ((target - weekdayOf(first) + 7) % 7) + 7 * (n - 1));
  return Number(date.slice(5, 7)) === month ? date : null;
}

/** The first day from today on that a monthly rule falls on. */
function firstMonthly(today: string, pick: (year: number, month: number) => string | null) {
  let year = Number(today.slice(0, 4));
  let month = Number(today.slice(5, 7));
  for (let i = 0; i < 14; i++) {
    const date = pick(year, month);
    if (date !== null && date >= today) return date;
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
  }
  return today;
}

/** "9am", "9:30 pm", "18:00", "at 9" at the end of the text: the time and the text before it. */
function splitTime(text: string): { rest: string; time: string | null } | null {
  const match =
    /^(.*?)(?:^|\s+)(?:at\s+|@\s*)?(\d{1,2}):(\d{2})(?::\d{2})?\s*(am|pm)?$/.exec(text) ??
    /^(.*?)(?:^|\s+)(?:at\s+|@\s*)?(\d{1,2})()\s*(am|pm)$/.exec(text) ??
    /^(.*?)\s+(?:at\s+|@\s*)(\d{1,2})()()$/.exec(text);
  if (!match) return { rest: text, time: null };
  let hour = Number(match[2]);
  const minute = match[3] ? Number(match[3]) : 0;
  const meridiem = match[4];
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return null;
  return { rest: (match[1] ?? '').trim(), time: `${pad(hour)}:${pad(minute)}` };
}

/** A date that is not a repeat: ISO, "Oct 9 2026", "9 Oct", "tomorrow", "next friday"... */
function plainDate(text: string, today: string): string | null {
  let match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match) return parseDate(text) ? text : null;
  match = new RegExp(`^${MONTH}\\s+${DAY}(?:,?\\s+(\\d{4}))?$`).exec(text);
  if (match) return monthDayYear(today, match[1], match[2], match[3]);
  match = new RegExp(`^${DAY}\\s+${MONTH}(?:,?\\s+(\\d{4}))?$`).exec(text);
  if (match) return monthDayYear(today, match[2], match[1], match[3]);
  switch (text) {
    case '':
    case 'today':
    case 'tod':
      return today;
    case 'tomorrow':
    case 'tom':
      return addDays(today, 1);
    case 'yesterday':
      return addDays(today, -1);
    case 'next week':
      return addDays(nextWeekday(today, 'mon'), weekdayOf(today) === 0 ? 7 : 0);
    case 'next month': {
      const year = Number(today.slice(0, 4));
      const month = Number(today.slice(5, 7));
      return month === 12 ? formatDate(year + 1, 1, 1) : formatDate(year, month + 1, 1);
    }
  }
  match = /^in\s+(\d{1,3})\s+(day|week)s?$/.exec(text);
  if (match) return addDays(today, Number(match[1]) * (match[2] === 'week' ? 7 : 1));
  match = new RegExp(`^(next\\s+|this\\s+)?${WEEKDAY}$`).exec(text);
  if (match) {
    const day = weekdayNamed(match[2] ?? '');
    if (!day) return null;
    const date = nextWeekday(today, day);
    return match[1]?.startsWith('next') && date === today ? addDays(date, 7) : date;
  }
  return null;
}

function monthDayYear(
  today: string,
  monthName: string | undefined,
  day: string | undefined,
  year: string | undefined,
): string | null {
  const month = MONTHS.indexOf((monthName ?? '').slice(0, 3)) + 1;
  if (month === 0) return null;
  if (year === undefined) return nextMonthDay(today, month, Number(day));
  const date = formatDate(Number(year), month, Number(day));
  return parseDate(date) ? date : null;
}

/** The rule after "every" (or "every!"), and its first date from today on. */
function repeatRule(
  rule: string,
  today: string,
  from: Repeat['from'],
): { repeat: Repeat; dueDate: string } | null {
  const every = (n: string | undefined) => (n === undefined ? 1 : n === 'other' ? 2 : Number(n));
  let match = /^(?:(other|\d{1,3})\s+)?(day|week|month|year)s?$/.exec(rule);
  if (match) {
    const n = every(match[1]);
    const unit = match[2] as Repeat['unit'];
    if (n < 1 || n > 365) return null;
    return { repeat: { every: n, unit, from }, dueDate: today };
  }
  if (rule === 'weekday' || rule === 'workday') {
    const weekdays: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];
    return weekly(1, weekdays, today, from);
  }
  if (rule === 'weekend') return weekly(1, ['sat', 'sun'], today, from);
  match = new RegExp(`^(?:(other)\\s+)?(${WEEKDAY}(?:\\s*(?:,|and|&)\\s*${WEEKDAY})*)$`).exec(rule);
  if (match) {
    const days = (match[2] ?? '').split(/\s*(?:,|and|&)\s*/).map(weekdayNamed);
    if (days.some((day) => day === null)) return null;
    return weekly(every(match[1]), [...new Set(days as Weekday[])], today, from);
  }
  match = new RegExp(
    `^(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\\s+${WEEKDAY}$`,
  ).exec(rule);
  if (match) {
    const n = ORDINAL_WORDS[match[1] ?? ''];
    const weekday = weekdayNamed(match[2] ?? '');
    if (!n || !weekday) return null;
    const dueDate = firstMonthly(today, (y, m) => nthWeekdayOf(y, m, n, weekday));
    return { repeat: { every: 1, unit: 'month', nthWeekday: { n, weekday }, from }, dueDate };
  }
  if (rule === 'last day') {
    const dueDate = firstMonthly(today, (y, m) => formatDate(y, m, daysInMonth(y, m)));
    return { repeat: { every: 1, unit: 'month', monthDay: 31, from }, dueDate };
  }
  match = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(rule);
  if (match) {
    const monthDay = Number(match[1]);
    if (monthDay < 1 || monthDay > 31) return null;
    const dueDate = firstMonthly(today, (y, m) =>
      formatDate(y, m, Math.min(monthDay, daysInMonth(y, m))),
    );
    return { repeat: { every: 1, unit: 'month', monthDay, from }, dueDate };
  }
  if (new RegExp(`^${MONTH}\\s+${DAY}$|^${DAY}\\s+${MONTH}$`).test(rule)) {
    const date = plainDate(rule, today);
    if (date === null) return null;
    return { repeat: { every: 1, unit: 'year', from }, dueDate: date };
  }
  return null;
}

function weekly(every: number, weekdays: Weekday[], today: string, from: Repeat['from']) {
  const sorted = WEEKDAYS.filter((day) => weekdays.includes(day));
  const dueDate = sorted.map((day) => nextWeekday(today, day)).sort()[0] ?? today;
  return { repeat: { every, unit: 'week' as const, weekdays: sorted, from }, dueDate };
}

const SHORTHANDS: Record<string, string> = {
  daily: 'every day',
  weekly: 'every week',
  monthly: 'every month',
  yearly: 'every year',
  annually: 'every year',
};

export function parseTodoistDate(raw: string, today: string): TodoistDate | null {
  let text = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return null;
  // An ISO date with a time: 2026-10-09T10:00 or 2026-10-09 10:00.
  text = text.replace(/^(\d{4}-\d{2}-\d{2})t(\d{1,2}:\d{2})/, '$1 $2');
  const timed = splitTime(text);
  if (!timed) return null;
  const { time } = timed;
  let rest = timed.rest;
  const shorthand = /^(daily|weekly|monthly|yearly|annually)(!?)/.exec(rest);
  if (shorthand)
    rest = (SHORTHANDS[shorthand[1] ?? ''] ?? '').replace('every', `every${shorthand[2]}`);
  const recurring = /^(?:every|ev)(!?)\s+(.+)$/.exec(rest);
  if (recurring) {
    const from = recurring[1] === '!' ? 'completion' : 'due';
    const rule = repeatRule(recurring[2] ?? '', today, from);
    return rule ? { dueDate: rule.dueDate, dueTime: time, repeat: rule.repeat } : null;
  }
  const dueDate = plainDate(rest, today);
  return dueDate === null ? null : { dueDate, dueTime: time, repeat: null };
}
