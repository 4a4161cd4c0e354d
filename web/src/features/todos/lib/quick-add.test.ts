import { i18n } from '@lingui/core';
import type { Group } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { parseQuickAdd } from './quick-add';

// Monday 23 November 2026, 12:00 in the test's own zone.
const now = new Date(2026, 10, 23, 12, 0);
const groups: Group[] = [{ id: 1, name: 'Home', color: '#84CC16', version: 1 }];

describe('quick add in the new-todo form', () => {
  it('labels each chip as the screens write it', () => {
    const result = parseQuickAdd('Pay rent tomorrow 9:00 #Home every month @bills p1', {
      groups,
      dismissed: new Set(),
      now,
    });
    expect(result).toMatchObject({
      title: 'Pay rent',
      dueDate: '2026-11-24',
      dueTime: '09:00',
      groupId: 1,
      tags: ['bills'],
      priority: 3,
    });
    expect(result.chips.map((chip) => `${chip.kind}: ${chip.label}`)).toEqual([
      'date: Tomorrow',
      'time: 09:00',
      'group: Home',
      'repeat: every month on day 24',
      'tag: bills',
      'priority: High',
    ]);
  });

  it('labels a date further off with its day', () => {
    const result = parseQuickAdd('Dentist Dec 4', { groups, dismissed: new Set(), now });
    expect(result.chips.map((chip) => chip.label)).toEqual(['Fri 4 Dec']);
  });

  it("reads the screen's language as well as English", () => {
    const before = i18n.locale;
    i18n.loadAndActivate({ locale: 'de', messages: {} });
    try {
      const result = parseQuickAdd('Müll rausbringen jeden Montag', {
        groups,
        dismissed: new Set(),
        now,
      });
      expect(result).toMatchObject({
        title: 'Müll rausbringen',
        repeat: { every: 1, unit: 'week', weekdays: ['mon'] },
      });
    } finally {
      i18n.loadAndActivate({ locale: before || 'en', messages: {} });
    }
  });
});
