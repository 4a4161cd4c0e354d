import { plural, t } from '@lingui/core/macro';
import { WEEKDAYS as DAYS } from '@tally/contract/dates';
import { activeLocale, formatDay, formatMonth, formatWeekday } from '#web/lib/date-format';
/**
 * Words and numbers of the Insights section (docs/product.md, Statistics screen, Insights).
 * Dates are the API's calendar dates in the user's zone (YYYY-MM-DD), so they are read as UTC
 * and never shift. Days and months are written in the app's one format, in the active language
 * (lib/date-format): "Tue 3 Dec" or "Tue, Dec 3". The words are messages, read when called, so
 * they follow a change of language.
 */

/** The days' names in the active language, Monday first, as the API's per-weekday counts come. */
export const weekdayNames = (width: 'long' | 'short' = 'long'): string[] =>
  DAYS.map((day) => formatWeekday(day, width));

interface CalendarDay {
  year: number;
  /** 0 = January. */
  month: number;
  day: number;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
}

export function calendarDay(date: string): CalendarDay {
  const parsed = new Date(`${date}T00:00:00Z`);
  return {
    year: parsed.getUTCFullYear(),
    month: parsed.getUTCMonth(),
    day: parsed.getUTCDate(),
    weekday: (parsed.getUTCDay() + 6) % 7,
  };
}

export const monthName = (month: number) => formatMonth(month);

/** "Tue 3 Dec" */
export function shortDay(date: string): string {
  // The day's own year as "today": never a year, as before (the heat map is one year).
  return formatDay(date, date);
}

/** "Tue 3 Dec 2024" */
export function longDay(date: string): string {
  return `${shortDay(date)} ${calendarDay(date).year}`;
}

/** "1 day", "5 days" */
export const dayCount = (count: number) => plural(count, { one: '# day', other: '# days' });

/** A heatmap day's name: "12 completed on Tue 3 Dec". */
export function dayLabel(date: string, completed: number): string {
  const day = shortDay(date);
  return plural(completed, {
    one: `# completed on ${day}`,
    other: `# completed on ${day}`,
  });
}

/** A number with one decimal at most, as the active language writes it: "3.5" or "3,5". */
const decimal = (value: number) =>
  new Intl.NumberFormat(activeLocale(), { maximumFractionDigits: 1 }).format(value);

/** "09:00–09:59" for hour 9. */
export function hourRange(hour: number): string {
  const h = String(hour).padStart(2, '0');
  return `${h}:00–${h}:59`;
}

/**
 * A duration given in hours (the API's tenths of an hour): in minutes below an hour, in hours
 * below two days and in days from there: "under 5 minutes", "30 minutes", "1 hour", "3.5 hours",
 * "27 hours", "2.5 days", "12 days". Null (nothing measured) is "—".
 */
export function formatDuration(hours: number | null): string {
  if (hours === null) return '—';
  if (hours < 1) {
    const minutes = Math.round(hours * 60);
    return minutes < 5
      ? t`under 5 minutes`
      : plural(minutes, { one: '# minute', other: '# minutes' });
  }
  if (hours < 48) {
    const rounded = hours < 10 ? Math.round(hours * 10) / 10 : Math.round(hours);
    const shown = decimal(rounded);
    return plural(rounded, { one: `${shown} hour`, other: `${shown} hours` });
  }
  const days = hours / 24;
  const roundedDays = days < 10 ? Math.round(days * 10) / 10 : Math.round(days);
  const shownDays = decimal(roundedDays);
  return plural(roundedDays, { one: `${shownDays} day`, other: `${shownDays} days` });
}

/** The on-time share as a whole percentage, "—" when no completed todo had a due date. */
export const formatRate = (rate: number | null) =>
  rate === null
    ? '—'
    : new Intl.NumberFormat(activeLocale(), { style: 'percent' }).format(
        Math.round(rate * 100) / 100,
      );

/** This week against last: "2 more than last week", "1 fewer than last week", "Same as last week". */
export function weekComparison(thisWeek: number, lastWeek: number): string {
  const difference = thisWeek - lastWeek;
  if (difference === 0) return t`Same as last week`;
  return difference > 0
    ? plural(difference, { one: '# more than last week', other: '# more than last week' })
    : plural(-difference, { one: '# fewer than last week', other: '# fewer than last week' });
}
