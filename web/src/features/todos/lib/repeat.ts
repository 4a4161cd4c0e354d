import { msg, plural, select, t } from '@lingui/core/macro';
import type { Repeat, Weekday } from '@tally/contract';
import { WEEKDAYS, weekdayOf } from '@tally/contract/dates';
import { activeLocale, formatWeekday } from '#web/lib/date-format';
import { formatDayOfYear, parseDate } from './dates';

/** The contract's weekdays, Monday first (contract/src/dates.ts). */
export { WEEKDAYS };

export type Nth = NonNullable<Repeat['nthWeekday']>['n'];

/** The nth weekday's key in its messages' `select` (ICU's select keys are words). */
const NTH_KEYS: Record<Nth, string> = {
  1: 'first',
  2: 'second',
  3: 'third',
  4: 'fourth',
  5: 'fifth',
  [-1]: 'last',
};

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

/** "the first Monday" as the rule's description says it: "every month on the first Monday". */
function nthWeekdayInRule(n: Nth, weekday: Weekday): string {
  const day = formatWeekday(weekday);
  return select(NTH_KEYS[n], {
    first: `the first ${day}`,
    second: `the second ${day}`,
    third: `the third ${day}`,
    fourth: `the fourth ${day}`,
    fifth: `the fifth ${day}`,
    other: `the last ${day}`,
  });
}

/** "every day", "every 3 weeks": a rule without a day of its own. */
function everyUnit(every: number, unit: Repeat['unit']): string {
  switch (unit) {
    case 'day':
      return plural(every, { one: 'every day', other: 'every # days' });
    case 'week':
      return plural(every, { one: 'every week', other: 'every # weeks' });
    case 'month':
      return plural(every, { one: 'every month', other: 'every # months' });
    case 'year':
      return plural(every, { one: 'every year', other: 'every # years' });
  }
}

const WORKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

/** The weekday of a date, as the contract names it. */
export function weekdayOfDate(date: string): Weekday {
  return WEEKDAYS[weekdayOf(date)] ?? 'mon';
}

const sortWeekdays = (days: readonly Weekday[]): Weekday[] =>
  [...days].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));

/** "Monday", "Monday and Friday", "Monday, Wednesday and Friday", as the language lists. */
const listOf = (words: readonly string[]): string =>
  new Intl.ListFormat(activeLocale(), { type: 'conjunction' }).format(words);

const sameDays = (a: readonly Weekday[] | undefined, b: readonly Weekday[]) =>
  a !== undefined && a.length === b.length && b.every((day) => a.includes(day));

/**
 * The rule in words, as a repeat mark's accessible name: "Repeats every month on day 31",
 * "Repeats every weekday", "Repeats every 2 weeks on Monday and Thursday, counted from
 * completion". The due date supplies the day a rule keeps when the rule leaves it out.
 */
export function describeRepeat(repeat: Repeat, dueDate: string | null): string {
  const rule = repeatRule(repeat, dueDate);
  return t`Repeats ${rule}`;
}

/** The rule without "Repeats": "every month on day 31" (quick add's chip). */
export function repeatRule(repeat: Repeat, dueDate: string | null): string {
  const { every } = repeat;
  let text = everyUnit(every, repeat.unit);
  const dueDay = dueDate ? parseDate(dueDate)?.day : undefined;
  if (repeat.unit === 'week' && repeat.weekdays?.length) {
    const days = listOf(sortWeekdays(repeat.weekdays).map((day) => formatWeekday(day)));
    text =
      every === 1 && sameDays(repeat.weekdays, WORKDAYS)
        ? t`every weekday`
        : plural(every, { one: `every week on ${days}`, other: `every # weeks on ${days}` });
  } else if (repeat.unit === 'month') {
    const day = repeat.monthDay ?? dueDay;
    if (repeat.nthWeekday) {
      const nth = nthWeekdayInRule(repeat.nthWeekday.n, repeat.nthWeekday.weekday);
      text = plural(every, { one: `every month on ${nth}`, other: `every # months on ${nth}` });
    } else if (day) {
      text = plural(every, {
        one: `every month on day ${day}`,
        other: `every # months on day ${day}`,
      });
    }
  } else if (repeat.unit === 'year' && dueDate) {
    const parts = parseDate(dueDate);
    const day = repeat.monthDay ?? parts?.day;
    if (parts && day) {
      const date = formatDayOfYear(`${dueDate.slice(0, 8)}${String(day).padStart(2, '0')}`);
      text = plural(every, { one: `every year on ${date}`, other: `every # years on ${date}` });
    }
  }
  return repeat.from === 'completion' ? t`${text}, counted from completion` : text;
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
