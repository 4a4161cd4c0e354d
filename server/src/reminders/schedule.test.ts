import { describe, expect, it } from 'vitest';
import { instantOf, mergeReminders } from './schedule.js';

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

  it('keeps, replaces or clears the reminders as a PUT asks, and only with a due time', () => {
    expect(mergeReminders([1440, 15], {}, '09:00')).toEqual([1440, 15]);
    expect(mergeReminders([15], { reminders: [0, 60, 0] }, '09:00')).toEqual([60, 0]);
    expect(mergeReminders([15], { reminders: [] }, '09:00')).toEqual([]);
    expect(mergeReminders([15], {}, null)).toEqual([]);
    expect(() => mergeReminders([], { reminders: [5] }, null)).toThrow(/reminders need a dueTime/);
  });

  it('takes remindMinutesBefore as the first reminder: replaced or removed alone', () => {
    expect(mergeReminders([1440, 15], { remindMinutesBefore: 60 }, '09:00')).toEqual([60, 15]);
    expect(mergeReminders([1440, 15], { remindMinutesBefore: 1440 }, '09:00')).toEqual([1440, 15]);
    expect(mergeReminders([1440, 15], { remindMinutesBefore: null }, '09:00')).toEqual([15]);
    expect(mergeReminders([], { remindMinutesBefore: 0 }, '09:00')).toEqual([0]);
    expect(() => mergeReminders([], { remindMinutesBefore: 5 }, null)).toThrow(/needs a dueTime/);
    expect(() =>
      mergeReminders([], { reminders: [60, 0], remindMinutesBefore: 0 }, '09:00'),
    ).toThrow(/^remindMinutesBefore must be/);
  });
});
