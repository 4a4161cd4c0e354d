import { describe, expect, it } from 'vitest';
import { dayLabel, dueLabel, isOverdue } from './dates';
import { presetOfRepeat } from './repeat';

// Monday 23 November 2026, 12:00 in the browser's zone.
const now = new Date(2026, 10, 23, 12, 0);
const todo = (dueDate: string | null, dueTime: string | null = null, completed = false) => ({
  dueDate,
  dueTime,
  completed,
});

describe('due labels', () => {
  it.each([
    ['2026-11-23', '17:00', 'Today 17:00'],
    ['2026-11-24', null, 'Tomorrow'],
    ['2026-11-22', null, 'Yesterday'],
    ['2026-11-30', null, 'Mon 30 Nov'],
    ['2026-12-04', '09:30', 'Fri 4 Dec 09:30'],
    ['2027-01-04', null, 'Mon, 4 Jan 2027'],
    ['2025-12-31', null, 'Wed, 31 Dec 2025'],
  ])('%s %s reads "%s"', (dueDate, dueTime, label) => {
    expect(dueLabel(todo(dueDate, dueTime), now)).toBe(label);
  });

  it('is absent without a due date', () => {
    expect(dueLabel(todo(null), now)).toBeNull();
  });

  it('keeps its days across a daylight-saving change', () => {
    expect(dayLabel('2026-03-30', '2026-03-29')).toBe('Tomorrow');
    expect(dayLabel('2026-10-26', '2026-10-25')).toBe('Tomorrow');
  });

  it.each([
    [todo('2026-11-22'), true],
    [todo('2026-11-23', '11:59'), true],
    [todo('2026-11-23', '12:00'), false],
    [todo('2026-11-23'), false],
    [todo('2026-11-24', '08:00'), false],
    [todo('2026-11-01', null, true), false],
    [todo(null), false],
  ])('%j is overdue: %s', (value, overdue) => {
    expect(isOverdue(value, now)).toBe(overdue);
  });
});

describe('repeat presets', () => {
  it('finds the preset of a rule the server completed', () => {
    expect(
      presetOfRepeat({ every: 1, unit: 'month', monthDay: 30, from: 'due' }, '2026-11-30'),
    ).toBe('monthly');
    expect(
      presetOfRepeat({ every: 1, unit: 'month', monthDay: 31, from: 'due' }, '2027-02-28'),
    ).toBe('custom');
    expect(presetOfRepeat({ every: 1, unit: 'week', from: 'completion' }, '2026-11-30')).toBe(
      'custom',
    );
    expect(presetOfRepeat(null, null)).toBe('never');
  });
});
