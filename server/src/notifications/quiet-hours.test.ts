import { describe, expect, it } from 'vitest';
import { quietHoursEnd } from './quiet-hours.js';

const at = (iso: string) => Date.parse(iso);
const night = [22 * 60, 7 * 60] as const;

describe('quietHoursEnd', () => {
  it('ends a night that spans midnight the next morning, in the zone', () => {
    // 23:30 in Berlin (UTC+1 in winter): quiet until 07:00 Berlin, 06:00 UTC.
    expect(quietHoursEnd(...night, 'Europe/Berlin', at('2026-11-29T22:30:00Z'))).toBe(
      at('2026-11-30T06:00:00Z'),
    );
    // 05:00 Berlin: the same night, ending this morning.
    expect(quietHoursEnd(...night, 'Europe/Berlin', at('2026-11-30T04:00:00Z'))).toBe(
      at('2026-11-30T06:00:00Z'),
    );
  });

  it('is null outside them, at their end, and when start equals end', () => {
    expect(quietHoursEnd(...night, 'Europe/Berlin', at('2026-11-30T06:00:00Z'))).toBeNull();
    expect(quietHoursEnd(...night, 'Europe/Berlin', at('2026-11-30T12:00:00Z'))).toBeNull();
    expect(quietHoursEnd(600, 600, 'UTC', at('2026-11-30T10:00:00Z'))).toBeNull();
  });

  it('keeps a daytime span within the day', () => {
    expect(quietHoursEnd(12 * 60, 14 * 60, 'UTC', at('2026-11-30T13:15:00Z'))).toBe(
      at('2026-11-30T14:00:00Z'),
    );
  });

  it('ends at the local time across a clock change', () => {
    // The night of 28 to 29 March 2027 in Berlin: clocks go forward at 02:00.
    expect(quietHoursEnd(...night, 'Europe/Berlin', at('2027-03-27T22:00:00Z'))).toBe(
      at('2027-03-28T05:00:00Z'),
    );
  });
});
