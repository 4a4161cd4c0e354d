import type { Repeat } from '@tally/contract';
import { parseDate } from '@tally/contract/dates';
import { badRequest } from '../shared/errors.js';

/**
 * The rules of due dates and repeats (docs/product.md, Planning), on calendar dates only: a due
 * date is a day of the user's own calendar, so no time zone enters the arithmetic.
 */

export interface Planning {
  dueDate: string | null;
  dueTime: string | null;
  repeat: Repeat | null;
}

/**
 * The todo's planning after a change: omitted fields keep their value, null clears them. Checks
 * what the schema cannot (a real date, a time or repeat only with a date, rule parts that fit the
 * unit) and completes a monthly or yearly rule with the day it keeps.
 */
export function mergePlanning(
  current: Planning,
  change: { dueDate?: string | null; dueTime?: string | null; repeat?: Repeat | null },
): Planning {
  const dueDate = change.dueDate === undefined ? current.dueDate : change.dueDate;
  let dueTime = change.dueTime === undefined ? current.dueTime : change.dueTime;
  let repeat = change.repeat === undefined ? current.repeat : change.repeat;
  if (dueDate !== null && !parseDate(dueDate)) {
    throw badRequest('dueDate must be a real calendar date (YYYY-MM-DD)');
  }
  if (dueDate === null) {
    // Clearing the date clears what only makes sense with one.
    if (change.dueTime) throw badRequest('dueTime needs a dueDate');
    if (change.repeat) throw badRequest('repeat needs a dueDate');
    dueTime = null;
    repeat = null;
  }
  if (repeat) repeat = normalizeRepeat(repeat, dueDate as string);
  return { dueDate, dueTime, repeat };
}

function normalizeRepeat(repeat: Repeat, dueDate: string): Repeat {
  if (repeat.weekdays && repeat.unit !== 'week') {
    throw badRequest('repeat.weekdays is only for a weekly repeat');
  }
  if (repeat.nthWeekday && repeat.unit !== 'month') {
    throw badRequest('repeat.nthWeekday is only for a monthly repeat');
  }
  if (repeat.monthDay !== undefined && repeat.unit !== 'month' && repeat.unit !== 'year') {
    throw badRequest('repeat.monthDay is only for a monthly or yearly repeat');
  }
  if (repeat.monthDay !== undefined && repeat.nthWeekday) {
    throw badRequest('repeat takes monthDay or nthWeekday, not both');
  }
  const due = parseDate(dueDate);
  if ((repeat.unit === 'month' || repeat.unit === 'year') && !repeat.nthWeekday && due) {
    // The day it keeps, so the 31st comes back after a shorter month.
    return { ...repeat, monthDay: repeat.monthDay ?? due.day };
  }
  return repeat;
}
