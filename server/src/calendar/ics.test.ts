import { TZDate } from '@date-fns/tz';
import type { Repeat } from '@tally/contract';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escapeText, extraDates, foldLine, renderCalendar, rruleOf, vtimezone } from './ics.js';

/**
 * The iCalendar writer, read back with an independent parser (ical.js, Mozilla's, as Thunderbird
 * uses it): what calendar apps will make of it.
 */

const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');

describe('escapeText', () => {
  it('escapes backslashes, semicolons, commas and line breaks, and drops control characters', () => {
    expect(escapeText('a,b;c\\d')).toBe('a\\,b\\;c\\\\d');
    expect(escapeText('one\ntwo\r\nthree\rfour')).toBe('one\\ntwo\\nthree\\nfour');
    expect(escapeText('bell\u0007 tab\t del\u007f')).toBe('bell tab\t del');
    expect(escapeText('Emoji 🎉, ünïcödé')).toBe('Emoji 🎉\\, ünïcödé');
  });

  it('round-trips through a parser', () => {
    const text = 'Commas, semicolons; back\\slash\nnew line 🎉 "quotes" :colon';
    const calendar = renderCalendar({
      name: 'T',
      timeZone: 'UTC',
      now: 0,
      events: [
        {
          uid: 'u@h',
          modifiedAt: 0,
          date: '2026-01-01',
          time: null,
          repeat: null,
          summary: text,
          description: text,
          category: 'Home, garden; shed',
        },
      ],
    });
    const event = new ICAL.Component(ICAL.parse(calendar)).getFirstSubcomponent('vevent');
    expect(event?.getFirstPropertyValue('summary')).toBe(text);
    expect(event?.getFirstPropertyValue('description')).toBe(text);
    // CATEGORIES is a list: its commas are separators unless escaped.
    expect(event?.getFirstProperty('categories')?.getValues()).toEqual(['Home, garden; shed']);
  });
});

describe('foldLine', () => {
  it('leaves a line of 75 octets alone and folds a longer one', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
    expect(foldLine('x'.repeat(75 + 74 + 1))).toBe(`${'x'.repeat(75)}\r\n ${'x'.repeat(74)}\r\n x`);
  });

  it('keeps every line within 75 octets and never splits a UTF-8 sequence', () => {
    for (const text of ['🎉'.repeat(60), `a${'é'.repeat(100)}`, `ab${'中'.repeat(90)}🎉x`]) {
      const folded = foldLine(`SUMMARY:${text}`);
      for (const line of folded.split('\r\n')) {
        expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
        // A split sequence would decode to U+FFFD.
        expect(Buffer.from(line, 'utf8').toString('utf8')).not.toContain('\ufffd');
        expect(line).not.toMatch(/[\ud800-\udbff]$/);
      }
      expect(unfold(folded)).toBe(`SUMMARY:${text}`);
    }
  });
});

describe('rruleOf', () => {
  const cases: [Repeat, string, string | null][] = [
    [{ every: 1, unit: 'day', from: 'due' }, '2026-03-10', 'FREQ=DAILY;INTERVAL=1'],
    [{ every: 3, unit: 'day', from: 'due' }, '2026-03-10', 'FREQ=DAILY;INTERVAL=3'],
    [{ every: 1, unit: 'week', from: 'due' }, '2026-03-10', 'FREQ=WEEKLY;INTERVAL=1;WKST=MO'],
    [
      { every: 2, unit: 'week', weekdays: ['fri', 'mon', 'wed'], from: 'due' },
      '2026-03-09',
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;WKST=MO',
    ],
    [
      { every: 1, unit: 'month', monthDay: 15, from: 'due' },
      '2026-03-15',
      'FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15',
    ],
    [
      { every: 1, unit: 'month', monthDay: 31, from: 'due' },
      '2026-03-31',
      'FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1',
    ],
    [
      { every: 2, unit: 'month', nthWeekday: { n: 2, weekday: 'tue' }, from: 'due' },
      '2026-03-10',
      'FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU',
    ],
    [
      { every: 1, unit: 'month', nthWeekday: { n: -1, weekday: 'fri' }, from: 'due' },
      '2026-03-27',
      'FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR',
    ],
    [
      { every: 1, unit: 'month', nthWeekday: { n: 5, weekday: 'sun' }, from: 'due' },
      '2026-03-29',
      'FREQ=MONTHLY;INTERVAL=1;BYDAY=-1SU',
    ],
    [
      { every: 1, unit: 'year', monthDay: 29, from: 'due' },
      '2028-02-29',
      'FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=-1',
    ],
    [
      { every: 5, unit: 'year', monthDay: 4, from: 'due' },
      '2026-07-04',
      'FREQ=YEARLY;INTERVAL=5;BYMONTH=7;BYMONTHDAY=4',
    ],
    [{ every: 1, unit: 'week', from: 'completion' }, '2026-03-10', null],
    [{ every: 1, unit: 'month', monthDay: 10, from: 'completion' }, '2026-03-10', null],
  ];
  it.each(cases)('maps %j from %s', (repeat, due, expected) => {
    expect(rruleOf(repeat, due)).toBe(expected);
  });

  it('is null without a rule', () => {
    expect(rruleOf(null, '2026-03-10')).toBeNull();
  });

  it('keeps a monthly 29th or 30th on its day, with the Februaries that lack it as RDATEs', () => {
    const thirtieth: Repeat = { every: 1, unit: 'month', monthDay: 30, from: 'due' };
    expect(rruleOf(thirtieth, '2026-01-30')).toBe('FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=30');
    expect(extraDates(thirtieth, '2026-01-30', 2028)).toEqual([
      '2026-02-28',
      '2027-02-28',
      '2028-02-29',
    ]);
    // A due date on such a February is not on BYMONTHDAY=30 either: an RDATE too.
    expect(extraDates(thirtieth, '2026-02-28', 2027)).toEqual(['2026-02-28', '2027-02-28']);
    // Every 5 months meets February rarely.
    const everyFive: Repeat = { every: 5, unit: 'month', monthDay: 29, from: 'due' };
    expect(extraDates(everyFive, '2026-03-29', 2031)).toEqual(['2029-02-28']);
    expect(extraDates({ ...thirtieth, monthDay: 28 }, '2026-01-28', 2030)).toEqual([]);
    expect(extraDates({ ...thirtieth, monthDay: 31 }, '2026-01-31', 2030)).toEqual([]);
    expect(extraDates({ ...thirtieth, from: 'completion' }, '2026-01-30', 2030)).toEqual([]);
  });

  it('adds a due date that is not on the rule', () => {
    const weekly: Repeat = { every: 1, unit: 'week', weekdays: ['mon'], from: 'due' };
    expect(extraDates(weekly, '2026-03-09', 2030)).toEqual([]);
    expect(extraDates(weekly, '2026-03-11', 2030)).toEqual(['2026-03-11']);
    const secondTuesday: Repeat = {
      every: 1,
      unit: 'month',
      nthWeekday: { n: 2, weekday: 'tue' },
      from: 'due',
    };
    expect(extraDates(secondTuesday, '2026-03-10', 2030)).toEqual([]);
    expect(extraDates(secondTuesday, '2026-03-17', 2030)).toEqual(['2026-03-17']);
    const lastFriday: Repeat = { ...secondTuesday, nthWeekday: { n: 5, weekday: 'fri' } };
    expect(extraDates(lastFriday, '2026-03-27', 2030)).toEqual([]);
    expect(extraDates(lastFriday, '2026-03-20', 2030)).toEqual(['2026-03-20']);
    const fifteenth: Repeat = { every: 1, unit: 'month', monthDay: 15, from: 'due' };
    expect(extraDates(fifteenth, '2026-03-15', 2030)).toEqual([]);
    expect(extraDates(fifteenth, '2026-03-05', 2030)).toEqual(['2026-03-05']);
    const leapDay: Repeat = { every: 1, unit: 'year', monthDay: 29, from: 'due' };
    expect(extraDates(leapDay, '2027-02-28', 2030)).toEqual([]);
  });
});

describe('vtimezone', () => {
  /** The instant ical.js makes of a wall-clock time in the zone, given our VTIMEZONE. */
  function parsedInstant(zone: string, lines: string[], local: string): number {
    const calendar = new ICAL.Component(
      ICAL.parse(
        ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:x', ...lines, 'END:VCALENDAR'].join('\r\n'),
      ),
    );
    const tz = new ICAL.Timezone(calendar.getFirstSubcomponent('vtimezone') as ICAL.Component);
    expect(tz.tzid).toBe(zone);
    const time = ICAL.Time.fromDateTimeString(local);
    time.zone = tz;
    return time.toUnixTime() * 1000;
  }

  const zones = [
    'Europe/Berlin',
    'America/New_York',
    'Australia/Sydney',
    'America/St_Johns',
    'Asia/Kathmandu',
    'Asia/Calcutta',
    'Pacific/Auckland',
    'Africa/Casablanca',
  ];
  it.each(zones)('gives the offsets of Intl for %s, across summer time', (zone) => {
    const lines = vtimezone(zone, [2025, 2026, 2027, 2028, 2029, 2030]);
    for (let month = 1; month <= 12; month += 1) {
      for (const [day, hour] of [
        [1, 0],
        [15, 9],
        [28, 23],
      ] as const) {
        for (const year of [2025, 2027, 2030]) {
          const local = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:30:00`;
          const expected = new TZDate(year, month - 1, day, hour, 30, zone).getTime();
          expect(parsedInstant(zone, lines, local), `${zone} ${local}`).toBe(expected);
        }
      }
    }
  });

  it('writes DAYLIGHT and STANDARD observances at the wall-clock time before each change', () => {
    const lines = vtimezone('Europe/Berlin', [2026]).join('\n');
    expect(lines).toContain(
      'BEGIN:DAYLIGHT\nDTSTART:20260329T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nEND:DAYLIGHT',
    );
    expect(lines).toContain(
      'BEGIN:STANDARD\nDTSTART:20261025T030000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nEND:STANDARD',
    );
    expect(vtimezone('Asia/Kathmandu', [2026])).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:Asia/Kathmandu',
      'BEGIN:STANDARD',
      'DTSTART:20251231T054500',
      'TZOFFSETFROM:+0545',
      'TZOFFSETTO:+0545',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });
});
