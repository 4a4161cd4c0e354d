import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('writes what toISOString writes, at the edges of days, months, years and leap days', () => {
    const instants = [
      0,
      1,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      Date.parse('2000-02-29T23:59:59.999Z'),
      Date.parse('2024-02-29T12:34:56.789Z'),
      Date.parse('2100-03-01T00:00:00.000Z'),
      Date.parse('2026-12-31T23:59:59.999Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
    ];
    for (const instant of instants) expect(isoTime(instant)).toBe(new Date(instant).toISOString());
  });

  it('agrees with toISOString on random instants from 1970 to 9999', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 20_000; i++) {
      const instant = Math.floor(random() * 253_402_300_800_000);
      expect(isoTime(instant)).toBe(new Date(instant).toISOString());
    }
  });

  it('leaves instants outside 1970-9999 and fractions to toISOString', () => {
    for (const instant of [-1, -86_400_001, 253_402_300_800_000, 1.5]) {
      expect(isoTime(instant)).toBe(new Date(instant).toISOString());
    }
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
