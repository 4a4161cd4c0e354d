import { describe, expect, it } from 'vitest';
import { instantOf, mergeRemindMinutesBefore } from './schedule.js';

describe('when a reminder goes out', () => {
  it('reads the due date and time in the zone, daylight saving included', () => {
    expect(new Date(instantOf('2026-03-10', '13:00', 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-10T12:00:00.000Z',
    );
    // Summer time from 29 March 2026 in Berlin.
    expect(new Date(instantOf('2026-03-30', '13:00', 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-30T11:00:00.000Z',
    );
    expect(new Date(instantOf('2026-11-01', '09:30', 'America/New_York')).toISOString()).toBe(
      '2026-11-01T14:30:00.000Z',
    );
    expect(new Date(instantOf('2026-12-31', '23:59', 'UTC')).toISOString()).toBe(
      '2026-12-31T23:59:00.000Z',
    );
  });

  it('keeps, changes or clears the offset as a PUT asks, and only with a due time', () => {
    expect(mergeRemindMinutesBefore(15, undefined, '09:00')).toBe(15);
    expect(mergeRemindMinutesBefore(15, 0, '09:00')).toBe(0);
    expect(mergeRemindMinutesBefore(15, null, '09:00')).toBeNull();
    expect(mergeRemindMinutesBefore(15, undefined, null)).toBeNull();
    expect(() => mergeRemindMinutesBefore(null, 5, null)).toThrow(/needs a dueTime/);
  });
});
