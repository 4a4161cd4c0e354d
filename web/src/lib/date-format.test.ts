import { afterEach, describe, expect, it } from 'vitest';
import { activateLanguage } from './i18n';
import {
  formatDay,
  formatDayMonth,
  formatDayOfYear,
  formatDue,
  formatMoment,
  formatMonth,
  formatTime,
  formatWeekday,
  relativeDay,
} from './date-format';
import * as core from './date-format-core';

const today = '2026-11-25';

describe('date-format', () => {
  it('writes the clock as the locale does: 24 hours with two digits, or 12 with AM/PM', () => {
    expect(formatTime('09:30', 'en-GB')).toBe('09:30');
    expect(formatTime('17:05', 'en-GB')).toBe('17:05');
    expect(formatTime('09:30', 'en-US')).toBe('9:30 AM');
    expect(formatTime('00:15', 'en-US')).toBe('12:15 AM');
    expect(formatTime('17:05', 'de-DE')).toBe('17:05');
  });

  it('says Today, Tomorrow and Yesterday, else the day in the locale, with a year only when not this one', () => {
    expect(relativeDay(today, today)).toBe('Today');
    expect(relativeDay('2026-11-26', today)).toBe('Tomorrow');
    expect(relativeDay('2026-11-24', today)).toBe('Yesterday');
    expect(relativeDay('2026-12-04', today, 'en-GB')).toBe('Fri 4 Dec');
    expect(relativeDay('2026-12-04', today, 'en-US')).toBe('Fri, Dec 4');
    expect(formatDay('2027-01-04', today, 'en-GB')).toBe('Mon, 4 Jan 2027');
    expect(formatDay('2027-01-04', today, 'en-US')).toBe('Mon, Jan 4, 2027');
    // Across New Year: the next day is still Tomorrow.
    expect(relativeDay('2027-01-01', '2026-12-31')).toBe('Tomorrow');
  });

  it('puts a due time after its day', () => {
    expect(formatDue(today, '17:00', today, 'en-GB')).toBe('Today 17:00');
    expect(formatDue(today, '17:00', today, 'en-US')).toBe('Today 5:00 PM');
    expect(formatDue('2026-11-26', null, today, 'en-US')).toBe('Tomorrow');
  });

  it('writes a moment in the browser zone, relative when near', () => {
    const now = new Date(2026, 10, 25, 12, 0);
    expect(formatMoment(new Date(2026, 10, 25, 8, 5).toISOString(), now, 'en-GB')).toBe(
      'Today 08:05',
    );
    expect(formatMoment(new Date(2026, 10, 24, 21, 0).toISOString(), now, 'en-US')).toBe(
      'Yesterday 9:00 PM',
    );
    expect(formatMoment(new Date(2025, 4, 2, 7, 0).toISOString(), now, 'en-GB')).toBe(
      'Fri, 2 May 2025 07:00',
    );
    expect(formatMoment('not a date', now)).toBe('not a date');
  });

  it('names days and months for charts and yearly rules', () => {
    expect(formatDayMonth('2026-12-04', 'en-GB')).toBe('4 Dec');
    expect(formatDayMonth('2026-12-04', 'en-US')).toBe('Dec 4');
    expect(formatDayOfYear('2026-12-04', 'en-GB')).toBe('4 December');
    expect(formatMonth(11, 'en-US')).toBe('Dec');
  });
});

describe('the active language', () => {
  afterEach(() => activateLanguage('en'));

  it('writes days, near days and weekdays in the language Tally speaks, not the browser’s', async () => {
    await activateLanguage('de');
    const today = '2026-11-29';
    expect(relativeDay(today, today)).toBe('Heute');
    expect(relativeDay('2026-11-30', today)).toBe('Morgen');
    expect(formatDue('2026-11-28', '17:05', today)).toBe('Gestern 17:05');
    expect(formatDay('2026-12-04', today)).toBe('Fr., 4. Dez.');
    expect(formatWeekday('mon')).toBe('Montag');
    expect(formatTime('17:05')).toBe('17:05');
  });

  it('writes Arabic dates in Arabic', async () => {
    await activateLanguage('ar');
    expect(formatWeekday('fri')).toBe('الجمعة');
    expect(relativeDay('2026-11-30', '2026-11-29')).toBe('غدًا');
  });

  it('keeps the service worker’s near days English: it has no catalog', async () => {
    await activateLanguage('de');
    expect(core.formatDue('2026-11-29', null, '2026-11-29')).toBe('Today');
  });
});
