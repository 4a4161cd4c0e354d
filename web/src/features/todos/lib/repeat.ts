import { msg, select } from '@lingui/core/macro';
import type { Repeat, Weekday } from '@tally/contract';
import { WEEKDAYS, weekdayOf } from '@tally/contract/dates';
import { formatWeekday } from '#web/lib/date-format';
import { NTH_KEYS, WORKDAYS, sameDays, type Nth } from '#web/lib/repeat-words';
import { parseDate } from './dates';

/** The contract's weekdays, Monday first (contract/src/dates.ts). */
export { WEEKDAYS };

/**
 * "The first Monday", "The last Friday" (a monthly rule's choice): one message, so each language
 * agrees the ordinal with its weekday.
 */
export function nthWeekdayChoice(n: Nth, weekday: Weekday): string {
  const day = formatWeekday(weekday);
  return select(NTH_KEYS[n], {
    first: `The first ${day}`,
    second: `The second ${day}`,
    third: `The third ${day}`,
    fourth: `The fourth ${day}`,
    fifth: `The fifth ${day}`,
    other: `The last ${day}`,
  });
}

/** The weekday of a date, as the contract names it. */
export function weekdayOfDate(date: string): Weekday {
  return WEEKDAYS[weekdayOf(date)] ?? 'mon';
}

/** The choices of the Repeat select. */
export const REPEAT_PRESETS = [
  { value: 'never', label: msg`Never` },
  { value: 'daily', label: msg`Daily` },
  { value: 'weekdays', label: msg`Weekdays` },
  { value: 'weekly', label: msg`Weekly` },
  { value: 'monthly', label: msg`Monthly` },
  { value: 'yearly', label: msg`Yearly` },
  { value: 'custom', label: msg`Custom…` },
] as const;
export type RepeatPreset = (typeof REPEAT_PRESETS)[number]['value'];

/** The rule a preset stands for (Custom keeps the rule it is given). */
export function repeatOfPreset(preset: Exclude<RepeatPreset, 'custom'>): Repeat | null {
  switch (preset) {
    case 'never':
      return null;
    case 'daily':
      return { every: 1, unit: 'day', from: 'due' };
    case 'weekdays':
      return { every: 1, unit: 'week', weekdays: [...WORKDAYS], from: 'due' };
    case 'weekly':
      return { every: 1, unit: 'week', from: 'due' };
    case 'monthly':
      return { every: 1, unit: 'month', from: 'due' };
    case 'yearly':
      return { every: 1, unit: 'year', from: 'due' };
  }
}

/**
 * The preset a rule is, or Custom. Monthly and yearly rules keep their day (the server fills it
 * in from the due date), so one that keeps the due date's day is still Monthly or Yearly.
 */
export function presetOfRepeat(repeat: Repeat | null, dueDate: string | null): RepeatPreset {
  if (!repeat) return 'never';
  if (repeat.every !== 1 || repeat.from !== 'due') return 'custom';
  const dueDay = dueDate ? parseDate(dueDate)?.day : undefined;
  const keepsDueDay = repeat.monthDay === undefined || repeat.monthDay === dueDay;
  switch (repeat.unit) {
    case 'day':
      return 'daily';
    case 'week':
      if (!repeat.weekdays?.length) return 'weekly';
      return sameDays(repeat.weekdays, WORKDAYS) ? 'weekdays' : 'custom';
    case 'month':
      return !repeat.nthWeekday && keepsDueDay ? 'monthly' : 'custom';
    case 'year':
      return keepsDueDay ? 'yearly' : 'custom';
  }
}
