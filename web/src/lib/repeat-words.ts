import { plural, select, t } from '@lingui/core/macro';
import type { Repeat, Weekday } from '@tally/contract';
import { WEEKDAYS, parseDate } from '@tally/contract/dates';
import { activeLocale, formatDayOfYear, formatWeekday } from './date-format';

/**
 * A repeat rule in words, in the active language: the todo's repeat mark, quick add's chip, the
 * field conflict and the import preview all say a rule this one way.
 */

export type Nth = NonNullable<Repeat['nthWeekday']>['n'];

/** The nth weekday's key in its messages' `select` (ICU's select keys are words). */
export const NTH_KEYS: Record<Nth, string> = {
  1: 'first',
  2: 'second',
  3: 'third',
  4: 'fourth',
  5: 'fifth',
  [-1]: 'last',
};

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

export const WORKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

const sortWeekdays = (days: readonly Weekday[]): Weekday[] =>
  [...days].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));

/** "Monday", "Monday and Friday", "Monday, Wednesday and Friday", as the language lists. */
const listOf = (words: readonly string[]): string =>
  new Intl.ListFormat(activeLocale(), { type: 'conjunction' }).format(words);

export const sameDays = (a: readonly Weekday[] | undefined, b: readonly Weekday[]) =>
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
