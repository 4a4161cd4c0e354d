import type { Repeat, Weekday } from '@tally/contract';
import { WEEKDAYS, weekdayOf } from '@tally/contract/dates';
import { WEEKDAY_NAMES } from '#web/lib/date-format';
import { formatDayOfYear, parseDate } from './dates';

/** The contract's weekdays, Monday first (contract/src/dates.ts), and their names. */
export { WEEKDAYS, WEEKDAY_NAMES };

export type Nth = NonNullable<Repeat['nthWeekday']>['n'];
export const NTH_NAMES: Record<Nth, string> = {
  1: 'first',
  2: 'second',
  3: 'third',
  4: 'fourth',
  5: 'fifth',
  [-1]: 'last',
};

const UNIT_NAMES: Record<Repeat['unit'], string> = {
  day: 'day',
  week: 'week',
  month: 'month',
  year: 'year',
};

const WORKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

/** The weekday of a date, as the contract names it. */
export function weekdayOfDate(date: string): Weekday {
  return WEEKDAYS[weekdayOf(date)] ?? 'mon';
}

const sortWeekdays = (days: readonly Weekday[]): Weekday[] =>
  [...days].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));

/** "Monday", "Monday and Friday", "Monday, Wednesday and Friday". */
function listOf(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const sameDays = (a: readonly Weekday[] | undefined, b: readonly Weekday[]) =>
  a !== undefined && a.length === b.length && b.every((day) => a.includes(day));

/**
 * The rule in words, as a repeat mark's accessible name: "Repeats every month on day 31",
 * "Repeats every weekday", "Repeats every 2 weeks on Monday and Thursday, counted from
 * completion". The due date supplies the day a rule keeps when the rule leaves it out.
 */
export function describeRepeat(repeat: Repeat, dueDate: string | null): string {
  const unit = UNIT_NAMES[repeat.unit];
  let text = repeat.every === 1 ? `every ${unit}` : `every ${repeat.every} ${unit}s`;
  const dueDay = dueDate ? parseDate(dueDate)?.day : undefined;
  if (repeat.unit === 'week' && repeat.weekdays?.length) {
    text =
      repeat.every === 1 && sameDays(repeat.weekdays, WORKDAYS)
        ? 'every weekday'
        : `${text} on ${listOf(sortWeekdays(repeat.weekdays).map((day) => WEEKDAY_NAMES[day]))}`;
  } else if (repeat.unit === 'month') {
    if (repeat.nthWeekday) {
      const { n, weekday } = repeat.nthWeekday;
      text += ` on the ${NTH_NAMES[n]} ${WEEKDAY_NAMES[weekday]}`;
    } else if (repeat.monthDay ?? dueDay) {
      text += ` on day ${repeat.monthDay ?? dueDay}`;
    }
  } else if (repeat.unit === 'year' && dueDate) {
    const parts = parseDate(dueDate);
    const day = repeat.monthDay ?? parts?.day;
    if (parts && day) {
      text += ` on ${formatDayOfYear(`${dueDate.slice(0, 8)}${String(day).padStart(2, '0')}`)}`;
    }
  }
  if (repeat.from === 'completion') text += ', counted from completion';
  return `Repeats ${text}`;
}

/** The choices of the Repeat select. */
export const REPEAT_PRESETS = [
  { value: 'never', label: 'Never' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekdays', label: 'Weekdays' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly' },
  { value: 'custom', label: 'Custom…' },
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
