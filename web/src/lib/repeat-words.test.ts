import type { Repeat } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { describeRepeat, repeatRule } from './repeat-words';

describe('repeat wording', () => {
  it.each([
    [{ every: 1, unit: 'day' }, 'Repeats every day'],
    [{ every: 3, unit: 'day' }, 'Repeats every 3 days'],
    [
      { every: 1, unit: 'week', weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'] },
      'Repeats every weekday',
    ],
    [
      { every: 2, unit: 'week', weekdays: ['thu', 'mon'] },
      'Repeats every 2 weeks on Monday and Thursday',
    ],
    [{ every: 1, unit: 'month', monthDay: 31 }, 'Repeats every month on day 31'],
    [{ every: 1, unit: 'month' }, 'Repeats every month on day 30'],
    [
      { every: 1, unit: 'month', nthWeekday: { n: -1, weekday: 'fri' } },
      'Repeats every month on the last Friday',
    ],
    [{ every: 1, unit: 'year' }, 'Repeats every year on 30 November'],
  ] satisfies [Omit<Repeat, 'from'>, string][])('%j reads "%s"', (rule, text) => {
    expect(describeRepeat({ ...rule, from: 'due' }, '2026-11-30')).toBe(text);
  });

  it('says when it counts from completion', () => {
    expect(describeRepeat({ every: 2, unit: 'week', from: 'completion' }, '2026-11-30')).toBe(
      'Repeats every 2 weeks, counted from completion',
    );
  });

  it('reads the same in the import preview, without the word Repeats', () => {
    expect(repeatRule({ every: 1, unit: 'month', monthDay: 1, from: 'due' }, null)).toBe(
      'every month on day 1',
    );
    expect(repeatRule({ every: 3, unit: 'day', from: 'due' }, null)).toBe('every 3 days');
  });
});
