import { WEEKDAYS, type Repeat, type Weekday } from '@tally/contract';

/**
 * An RFC 5545 RRULE as TickTick's backup writes it ("RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE")
 * in Tally's terms. Answers the repeat (null when Tally has no equivalent) and what could not be
 * kept, in words, or null when nothing was lost.
 */
export function repeatOfRrule(text: string): { repeat: Repeat | null; problem: string | null } {
  const rule = text.trim().replace(/^RRULE:/i, '');
  if (/^ERULE:/i.test(rule)) {
    return { repeat: null, problem: "TickTick's repeats on chosen dates have no equivalent" };
  }
  const parts = new Map<string, string>();
  for (const part of rule.split(';')) {
    const [key, value] = part.split('=');
    if (key && value !== undefined) parts.set(key.trim().toUpperCase(), value.trim().toUpperCase());
  }
  const units: Record<string, Repeat['unit']> = {
    DAILY: 'day',
    WEEKLY: 'week',
    MONTHLY: 'month',
    YEARLY: 'year',
  };
  const unit = units[parts.get('FREQ') ?? ''];
  if (!unit) return { repeat: null, problem: `the repeat "${text}" has no equivalent` };
  const every = Number(parts.get('INTERVAL') ?? '1');
  if (!Number.isInteger(every) || every < 1 || every > 365) {
    return { repeat: null, problem: `an interval of ${parts.get('INTERVAL')} has no equivalent` };
  }
  const repeat: Repeat = { every, unit, from: 'due' };
  const lost: string[] = [];
  if (parts.has('COUNT') || parts.has('UNTIL')) lost.push('its end (Tally repeats have none)');

  const byDay = parts.get('BYDAY');
  if (byDay) {
    const days = byDay.split(',').map((day) => /^([+-]?\d)?(MO|TU|WE|TH|FR|SA|SU)$/.exec(day));
    const weekday = (code: string) =>
      WEEKDAYS[['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'].indexOf(code)] as Weekday;
    if (days.some((day) => day === null)) {
      lost.push(`the days ${byDay}`);
    } else if (unit === 'week' || (unit === 'day' && days.every((day) => !day?.[1]))) {
      // FREQ=DAILY;BYDAY=MO,TU… is a weekly repeat on those days.
      repeat.unit = 'week';
      repeat.weekdays = WEEKDAYS.filter((w) => days.some((day) => weekday(day?.[2] ?? '') === w));
    } else if (unit === 'month' && days.length === 1) {
      const [, nth, code] = days[0] as RegExpExecArray;
      const n = Number(nth ?? parts.get('BYSETPOS') ?? 'NaN');
      if (n === 1 || n === 2 || n === 3 || n === 4 || n === 5 || n === -1) {
        repeat.nthWeekday = { n, weekday: weekday(code ?? '') };
      } else {
        lost.push(`the days ${byDay}`);
      }
    } else {
      lost.push(`the days ${byDay}`);
    }
  }
  const byMonthDay = parts.get('BYMONTHDAY');
  if (byMonthDay && unit === 'month' && !repeat.nthWeekday) {
    const day = Number(byMonthDay);
    // -1, the month's last day, is Tally's 31st: it falls on the last day of shorter months.
    if (day === -1) repeat.monthDay = 31;
    else if (Number.isInteger(day) && day >= 1 && day <= 31) repeat.monthDay = day;
    else lost.push(`the days of the month ${byMonthDay}`);
  }
  return { repeat, problem: lost.length > 0 ? lost.join(', ') : null };
}
