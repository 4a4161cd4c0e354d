import { describe, expect, it } from 'vitest';
import { addDays, daysInMonth, formatDate, pad, parseDate, WEEKDAYS, weekdayOf } from './dates.js';

describe('dates', () => {
  it('parse, format, shift and name days in UTC, refusing dates that do not exist', () => {
    expect(parseDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseDate('2027-02-29')).toBeNull();
    expect(parseDate('1969-12-31')).toBeNull();
    expect(parseDate('2026-1-05')).toBeNull();
    expect(formatDate(987, 3, 4)).toBe('0987-03-04');
    expect(pad(7.9)).toBe('07');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
    expect([daysInMonth(2028, 2), daysInMonth(2027, 2), daysInMonth(2026, 12)]).toEqual([
      29, 28, 31,
    ]);
    // 2026-11-23 is a Monday, 2026-11-29 a Sunday.
    expect([weekdayOf('2026-11-23'), weekdayOf('2026-11-29')]).toEqual([0, 6]);
    expect(WEEKDAYS[weekdayOf('2026-11-25')]).toBe('wed');
  });
});
