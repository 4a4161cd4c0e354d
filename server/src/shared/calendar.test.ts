import { describe, expect, it } from 'vitest';
import { addDays, parseDate } from '@tally/contract/dates';
import { dateInZone, daysBetween, resolveTimeZone, startOfDay } from './calendar.js';

describe('calendar', () => {
  it('finds the start of a day in a zone, across daylight-saving changes', () => {
    expect(new Date(startOfDay('2026-03-10', 'UTC')).toISOString()).toBe(
      '2026-03-10T00:00:00.000Z',
    );
    expect(new Date(startOfDay('2026-03-10', 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-09T23:00:00.000Z',
    );
    // Berlin moves to summer time on 2026-03-29: that day is 23 hours long.
    const spring =
      startOfDay('2026-03-30', 'Europe/Berlin') - startOfDay('2026-03-29', 'Europe/Berlin');
    expect(spring).toBe(23 * 3600 * 1000);
    expect(new Date(startOfDay('2026-07-01', 'America/New_York')).toISOString()).toBe(
      '2026-07-01T04:00:00.000Z',
    );
  });

  it('reads an instant as a date in the zone', () => {
    const lateEvening = Date.parse('2026-03-10T23:30:00Z');
    expect(dateInZone(lateEvening, 'UTC')).toBe('2026-03-10');
    expect(dateInZone(lateEvening, 'Europe/Berlin')).toBe('2026-03-11');
    expect(dateInZone(lateEvening, 'Pacific/Honolulu')).toBe('2026-03-10');
  });

  it('does calendar arithmetic over month and year ends', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
  });

  it('accepts only real dates', () => {
    expect(parseDate('2026-02-28')).toEqual({ year: 2026, month: 2, day: 28 });
    for (const bad of [
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '0001-01-01',
      '2026-1-1',
      'today',
    ]) {
      expect(parseDate(bad), bad).toBeNull();
    }
  });

  it('falls back to UTC for a missing or unknown zone', () => {
    expect(resolveTimeZone(undefined)).toBe('UTC');
    expect(resolveTimeZone('Mars/Olympus_Mons')).toBe('UTC');
    expect(resolveTimeZone('x'.repeat(100))).toBe('UTC');
    expect(resolveTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
  });

  it('gives the same date whether or not the day was just asked for, forwards and backwards', () => {
    // Across Berlin's spring change (a 23-hour day) and New York's autumn one (25 hours).
    const probe = (zone: string, from: string, hours: number) => {
      const start = Date.parse(from);
      const instants = Array.from({ length: hours * 4 }, (_, i) => start + i * 15 * 60_000 - 1);
      const expected = (instant: number) =>
        new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(instant));
      for (const instant of [...instants, ...instants.reverse()]) {
        expect(dateInZone(instant, zone), new Date(instant).toISOString()).toBe(expected(instant));
      }
    };
    probe('Europe/Berlin', '2026-03-28T20:00:00Z', 60);
    probe('America/New_York', '2026-10-31T20:00:00Z', 60);
    probe('Pacific/Kiritimati', '2026-06-30T00:00:00Z', 30);
  });
});
