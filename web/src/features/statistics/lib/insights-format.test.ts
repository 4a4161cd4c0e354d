import { describe, expect, it } from 'vitest';
import {
  dayLabel,
  formatDuration,
  formatRate,
  hourRange,
  longDay,
  weekComparison,
} from './insights-format';

describe('Insights wording', () => {
  it('names days the same in every browser and zone', () => {
    expect(dayLabel('2024-12-03', 12)).toBe('12 completed on Tue 3 Dec');
    expect(dayLabel('2026-03-01', 0)).toBe('0 completed on Sun 1 Mar');
    expect(longDay('2026-01-05')).toBe('Mon 5 Jan 2026');
    expect(hourRange(9)).toBe('09:00–09:59');
  });

  it('gives durations in minutes below an hour, hours below two days and days from there', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(0)).toBe('under 5 minutes');
    expect(formatDuration(0.1)).toBe('6 minutes');
    expect(formatDuration(0.5)).toBe('30 minutes');
    expect(formatDuration(1)).toBe('1 hour');
    expect(formatDuration(3.54)).toBe('3.5 hours');
    expect(formatDuration(27.4)).toBe('27 hours');
    expect(formatDuration(60)).toBe('2.5 days');
    expect(formatDuration(24 * 12.4)).toBe('12 days');
  });

  it('gives the on-time rate in whole percent and compares the weeks', () => {
    expect(formatRate(null)).toBe('—');
    expect(formatRate(1 / 3)).toBe('33%');
    expect(weekComparison(5, 3)).toBe('2 more than last week');
    expect(weekComparison(2, 3)).toBe('1 fewer than last week');
    expect(weekComparison(0, 0)).toBe('Same as last week');
  });
});
