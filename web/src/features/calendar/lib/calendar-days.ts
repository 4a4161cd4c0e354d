import type { Repeat, Todo } from '@tally/contract';
import {
  addDays,
  daysInMonth,
  formatDate,
  pad,
  parseDate,
  WEEKDAYS,
  type Weekday,
  weekdayOf,
} from '@tally/contract/dates';
import { nextOccurrence } from '@tally/contract/repeats';

/**
 * The calendar's days and what falls on them. Dates are 'YYYY-MM-DD' of the user's own calendar
 * and times are wall times in the user's zone, as todos store them, so the grid never does
 * arithmetic across a daylight-saving change: only "now" is placed with the zone.
 */

/** 0 = Sunday … 6 = Saturday, as the account's weekStart counts. */
type WeekStart = number;

/** The day a week starts on: the account's choice, else the locale's, else Monday. */
export function firstDayOfWeek(weekStart: WeekStart | null, locale: string): WeekStart {
  if (weekStart !== null) return weekStart;
  try {
    const info = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    const firstDay = info.getWeekInfo?.().firstDay ?? info.weekInfo?.firstDay;
    // Intl counts 1 = Monday … 7 = Sunday.
    if (firstDay !== undefined) return firstDay % 7;
  } catch {
    // An unknown tag: the default below.
  }
  return 1;
}

/** Sunday = 0 … Saturday = 6 of a date. */
const sundayFirst = (date: string) => (weekdayOf(date) + 1) % 7;

/** The first day of the week holding `date`. */
export const startOfWeek = (date: string, first: WeekStart): string =>
  addDays(date, -((sundayFirst(date) - first + 7) % 7));

/** The month's weeks, each seven dates, from the week of its 1st to the week of its last day. */
export function monthWeeks(month: string, first: WeekStart): string[][] {
  const parsed = parseDate(`${month}-01`);
  if (!parsed) throw new RangeError(`Not a month: ${month}`);
  const last = formatDate(parsed.year, parsed.month, daysInMonth(parsed.year, parsed.month));
  const weeks: string[][] = [];
  for (let day = startOfWeek(`${month}-01`, first); day <= last; day = addDays(day, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(day, i)));
  }
  return weeks;
}

/** 'YYYY-MM' `months` after the month. */
export function addMonths(month: string, months: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + number - 1 + months;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
}

const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** The date and the minutes since midnight of a moment on the wall clocks of a zone. */
export function wallClock(now: Date, zone: string): { date: string; minutes: number } {
  let format = wallFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    wallFormats.set(zone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(now).map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** 'HH:mm' as minutes since midnight. */
export const minutesOf = (time: string): number =>
  Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Minutes since midnight as 'HH:mm' (within the day). */
export const timeOfMinutes = (minutes: number): string => {
  const within = Math.min(Math.max(minutes, 0), 24 * 60 - 1);
  return `${pad(Math.floor(within / 60))}:${pad(within % 60)}`;
};

/** A todo on a day: the todo itself, or one of the next occurrences of its repeat (faint). */
export interface CalendarEntry {
  todo: Todo;
  date: string;
  occurrence: boolean;
}

/** The most occurrences a rule shows in a range (a daily rule over a month: every day). */
const OCCURRENCES_MAX = 62;

/**
 * The occurrences after the todo's own due date that fall in [from, to]. A rule counted from the
 * day of completion has no dates to come until it is completed, so it shows none. A rule of a
 * fixed period (days, or weeks) starts over every period, so the ones before the range are
 * skipped in one step rather than walked through.
 */
function occurrencesIn(repeat: Repeat, due: string, from: string, to: string): string[] {
  if (repeat.from === 'completion') return [];
  const period =
    repeat.unit === 'day' ? repeat.every : repeat.unit === 'week' ? 7 * repeat.every : 0;
  const dates: string[] = [];
  let date = nextOccurrence(repeat, due);
  if (period > 0 && date < from) {
    date = addDays(date, Math.floor(daysBetween(date, from) / period) * period);
  }
  while (dates.length < OCCURRENCES_MAX && date <= to && parseDate(date)) {
    if (date >= from) dates.push(date);
    date = nextOccurrence(repeat, date);
  }
  return dates;
}

/** Untimed first, then by time; among equals the list's manual order. */
function byTime(a: CalendarEntry, b: CalendarEntry): number {
  const at = a.todo.dueTime ?? '';
  const bt = b.todo.dueTime ?? '';
  if (at !== bt) return at < bt ? -1 : 1;
  return a.todo.position - b.todo.position;
}

/**
 * The todos by due date, each day in order, the open repeating ones (which also fall on days to
 * come) and the open ones without a date: made once when the list changes, so showing a range
 * looks up its own days instead of going through every todo.
 */
export interface DayIndex {
  byDate: ReadonlyMap<string, readonly CalendarEntry[]>;
  repeating: readonly Todo[];
  unscheduled: readonly Todo[];
}

export function indexByDay(todos: readonly Todo[]): DayIndex {
  const byDate = new Map<string, CalendarEntry[]>();
  const repeating: Todo[] = [];
  const unscheduled: Todo[] = [];
  for (const todo of todos) {
    const date = todo.dueDate;
    if (date === null) {
      if (!todo.completed) unscheduled.push(todo);
      continue;
    }
    const entry = { todo, date, occurrence: false };
    const list = byDate.get(date);
    if (list) list.push(entry);
    else byDate.set(date, [entry]);
    if (todo.repeat && !todo.completed) repeating.push(todo);
  }
  for (const list of byDate.values()) list.sort(byTime);
  return { byDate, repeating, unscheduled };
}

/** Each day of [from, to] with its todos in order; completed ones only when shown. */
export function entriesByDay(
  index: DayIndex,
  from: string,
  to: string,
  showCompleted: boolean,
): Map<string, CalendarEntry[]> {
  const days = new Map<string, CalendarEntry[]>();
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const list = index.byDate.get(date);
    const shown = showCompleted ? list : list?.filter((entry) => !entry.todo.completed);
    if (shown?.length) days.set(date, [...shown]);
  }
  const added = new Set<CalendarEntry[]>();
  for (const todo of index.repeating) {
    if (todo.repeat === null || todo.dueDate === null || todo.dueDate > to) continue;
    for (const date of occurrencesIn(todo.repeat, todo.dueDate, from, to)) {
      const entry = { todo, date, occurrence: true };
      const list = days.get(date);
      if (list) list.push(entry);
      else days.set(date, [entry]);
      added.add(days.get(date) ?? []);
    }
  }
  for (const list of added) list.sort(byTime);
  return days;
}

/**
 * The repeat rule after moving a todo by `days` for all its occurrences: the weekdays, the day of
 * the month or the weekday move with it (the server fills the day of the month from the new due
 * date when the rule names none).
 */
export function shiftedRepeat(repeat: Repeat, days: number): Repeat {
  const shift = (weekday: Weekday) =>
    WEEKDAYS[(((WEEKDAYS.indexOf(weekday) + days) % 7) + 7) % 7] ?? weekday;
  if (repeat.weekdays) return { ...repeat, weekdays: repeat.weekdays.map(shift) };
  if (repeat.nthWeekday) {
    return {
      ...repeat,
      nthWeekday: { ...repeat.nthWeekday, weekday: shift(repeat.nthWeekday.weekday) },
    };
  }
  const rest = { ...repeat };
  delete rest.monthDay;
  return rest;
}

/** Whole days from one date to another. */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
