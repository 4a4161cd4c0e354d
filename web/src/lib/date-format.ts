import { t } from '@lingui/core/macro';
import * as core from './date-format-core';

/**
 * The one date and time format of every screen (decision 087, lib/date-format-core.ts), with
 * the near days in the active language: "Today", "Morgen", "أمس". The service worker imports the
 * core itself: message macros have no place in its build, and it has no catalog.
 */
export {
  activeLocale,
  formatDay,
  formatDayMonth,
  formatDayOfYear,
  formatMonth,
  formatTime,
  formatWeekday,
  localDate,
  WEEKDAY_NAMES,
} from './date-format-core';

/** Read when a date is written, so a language chosen meanwhile is the one used. */
const nearDays = (): core.NearDayWords => ({
  today: t`Today`,
  tomorrow: t`Tomorrow`,
  yesterday: t`Yesterday`,
});

/** "Today", "Tomorrow", "Yesterday", else the day as `formatDay` writes it. */
export const relativeDay = (date: string, today: string, locale?: string): string =>
  core.relativeDay(date, today, locale, nearDays());

/** A due date with its optional time: "Today 17:00", "Tomorrow", "Mon 4 Dec 5:00 PM". */
export const formatDue = (
  date: string,
  time: string | null,
  today: string,
  locale?: string,
): string => core.formatDue(date, time, today, locale, nearDays());

/** A moment (an ISO 8601 instant) in the browser's zone: "Today 17:05", "Mon 4 Dec 17:05". */
export const formatMoment = (instant: string, now: Date = new Date(), locale?: string): string =>
  core.formatMoment(instant, now, locale, nearDays());
