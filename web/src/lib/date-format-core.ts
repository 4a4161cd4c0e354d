import { i18n } from '@lingui/core';
import { addDays, parseDate, type Weekday } from '@tally/contract/dates';

/**
 * The one date and time format of every screen (decision 087): the active language writes the
 * day, the month and the clock (12 or 24 hours, through Intl), and the near days are words:
 * "Today", "Tomorrow", "Yesterday". The calendar rules (parsing, adding days) are the contract's.
 * `locale` is for tests; the screens take the active language's (`activeLocale`).
 *
 * Without message macros, so that the service worker, which writes reminders with it and has no
 * catalog, can import it: the near days' words are given (English when not). The screens import
 * lib/date-format.ts, which gives them in the active language.
 */

type Locale = string | undefined;

/** The days' names in the app's words (a repeat's rule, the Insights charts), Monday first. */
export const WEEKDAY_NAMES: Readonly<Record<Weekday, string>> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** The browser's language, as its user chose it (undefined where there is no navigator). */
const browserLocale = (): Locale =>
  typeof navigator === 'undefined' ? undefined : navigator.language || undefined;

/** The words of the near days: "Today", "Tomorrow", "Yesterday". */
export interface NearDayWords {
  today: string;
  tomorrow: string;
  yesterday: string;
}

/** The service worker's words: it has no catalog, and its notification's sentence is English. */
const ENGLISH_NEAR_DAYS: NearDayWords = {
  today: 'Today',
  tomorrow: 'Tomorrow',
  yesterday: 'Yesterday',
};

/** The pseudo-languages write dates as the language they are made from. */
const PSEUDO_BASE: Readonly<Record<string, string>> = { 'en-XA': 'en', 'ar-XB': 'ar' };

const baseLanguage = (tag: string): string => tag.split('-')[0]?.toLowerCase() ?? tag;

/**
 * The locale dates and numbers follow: the active language, in the browser's own variant of it
 * when it is the same language (English in a British browser writes "4 Dec" and a 24-hour clock).
 */
export function activeLocale(): Locale {
  const active = i18n.locale ? (PSEUDO_BASE[i18n.locale] ?? i18n.locale) : undefined;
  const browser = browserLocale();
  if (!active) return browser;
  return browser && baseLanguage(browser) === baseLanguage(active) ? browser : active;
}

const cache = new Map<string, Intl.DateTimeFormat>();

/** One Intl.DateTimeFormat per locale and options: making one costs more than using it. */
function formatter(given: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = given ?? activeLocale();
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let found = cache.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, options);
    cache.set(key, found);
  }
  return found;
}

/** A calendar date read as that day in UTC, so no time zone moves it to another day. */
function utcDay(date: string): Date | null {
  const parts = parseDate(date);
  return parts ? new Date(Date.UTC(parts.year, parts.month - 1, parts.day)) : null;
}

/** The local calendar date of a moment, YYYY-MM-DD. */
export function localDate(moment: Date): string {
  const month = String(moment.getMonth() + 1).padStart(2, '0');
  const day = String(moment.getDate()).padStart(2, '0');
  return `${moment.getFullYear()}-${month}-${day}`;
}

/** Whether the locale counts hours to 24: then "09:30", as a 24-hour clock shows it. */
function uses24Hours(locale: Locale): boolean {
  const cycle = formatter(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h23' || cycle === 'h24';
}

const clockOptions = (locale: Locale): Intl.DateTimeFormatOptions => ({
  hour: uses24Hours(locale) ? '2-digit' : 'numeric',
  minute: '2-digit',
});

/** A wall-clock time "HH:mm" as the locale writes it: "17:05" or "5:05 PM". */
export function formatTime(time: string, locale?: string): string {
  const match = /^(\d{2}):(\d{2})/.exec(time);
  if (!match) return time;
  const moment = new Date(Date.UTC(2000, 0, 1, Number(match[1]), Number(match[2])));
  return formatter(locale, { ...clockOptions(locale), timeZone: 'UTC' }).format(moment);
}

/** "Mon 4 Dec" / "Mon, Dec 4", with the year when it is not `today`'s year. */
export function formatDay(date: string, today: string, locale?: string): string {
  const day = utcDay(date);
  if (!day) return date;
  const sameYear = date.slice(0, 4) === today.slice(0, 4);
  return formatter(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  }).format(day);
}

/** "Today", "Tomorrow", "Yesterday", else the day as `formatDay` writes it. */
export function relativeDay(
  date: string,
  today: string,
  locale?: string,
  nearDays: NearDayWords = ENGLISH_NEAR_DAYS,
): string {
  if (date === today) return nearDays.today;
  if (date === addDays(today, 1)) return nearDays.tomorrow;
  if (date === addDays(today, -1)) return nearDays.yesterday;
  return formatDay(date, today, locale);
}

/** A due date with its optional time: "Today 17:00", "Tomorrow", "Mon 4 Dec 5:00 PM". */
export function formatDue(
  date: string,
  time: string | null,
  today: string,
  locale?: string,
  nearDays: NearDayWords = ENGLISH_NEAR_DAYS,
): string {
  const day = relativeDay(date, today, locale, nearDays);
  return time ? `${day} ${formatTime(time, locale)}` : day;
}

/**
 * A moment (an ISO 8601 instant, as the API sends them) in the browser's zone: "Today 17:05",
 * "Yesterday 9:12 AM", "Mon 4 Dec 17:05", "Fri 4 Dec 2025 17:05".
 */
export function formatMoment(
  instant: string,
  now: Date = new Date(),
  locale?: string,
  nearDays: NearDayWords = ENGLISH_NEAR_DAYS,
): string {
  const moment = new Date(instant);
  if (Number.isNaN(moment.getTime())) return instant;
  const time = formatter(locale, clockOptions(locale)).format(moment);
  return `${relativeDay(localDate(moment), localDate(now), locale, nearDays)} ${time}`;
}

/** A calendar date without its weekday, for a chart's axis: "4 Dec" / "Dec 4". */
export function formatDayMonth(date: string, locale?: string): string {
  const day = utcDay(date);
  return day
    ? formatter(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(day)
    : date;
}

/** "4 December" / "December 4", for a yearly repeat. */
export function formatDayOfYear(date: string, locale?: string): string {
  const day = utcDay(date);
  return day
    ? formatter(locale, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(day)
    : date;
}

/** A day's name in the active language (Monday → "Montag"); `WEEKDAY_NAMES` are English. */
export function formatWeekday(
  day: Weekday,
  width: 'long' | 'short' = 'long',
  locale?: string,
): string {
  const monday = Date.UTC(2024, 0, 1);
  const index = WEEKDAY_ORDER.indexOf(day);
  return formatter(locale, { weekday: width, timeZone: 'UTC' }).format(
    new Date(monday + index * 86_400_000),
  );
}

const WEEKDAY_ORDER = Object.keys(WEEKDAY_NAMES) as Weekday[];

/** A month's short name (0 = January): "Dec". */
export function formatMonth(month: number, locale?: string): string {
  return formatter(locale, { month: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2000, month, 1)),
  );
}
