import { describe, expect, it } from 'vitest';
import { describeRepeat } from './csv-export.js';
import { decodeText } from './decode.js';
import { nearestSwatch } from './import-service.js';
import { repeatOfRrule } from './sources/rrule.js';
import { parseTodoistDate } from './sources/todoist-dates.js';

/** The pieces of the import without a database: dates, repeats, colours, encodings. */

// A Tuesday.
const TODAY = '2026-03-10';

describe("Todoist's DATE", () => {
  const cases: [string, ReturnType<typeof parseTodoistDate>][] = [
    ['2026-10-09', { dueDate: '2026-10-09', dueTime: null, repeat: null }],
    ['2026-10-09T14:30', { dueDate: '2026-10-09', dueTime: '14:30', repeat: null }],
    ['Oct 9 2026 10:00', { dueDate: '2026-10-09', dueTime: '10:00', repeat: null }],
    ['9 October 2026', { dueDate: '2026-10-09', dueTime: null, repeat: null }],
    ['Mar 1', { dueDate: '2027-03-01', dueTime: null, repeat: null }],
    ['today', { dueDate: TODAY, dueTime: null, repeat: null }],
    ['tomorrow at 9am', { dueDate: '2026-03-11', dueTime: '09:00', repeat: null }],
    ['tod 12pm', { dueDate: TODAY, dueTime: '12:00', repeat: null }],
    ['friday', { dueDate: '2026-03-13', dueTime: null, repeat: null }],
    ['next tuesday', { dueDate: '2026-03-17', dueTime: null, repeat: null }],
    ['in 2 weeks', { dueDate: '2026-03-24', dueTime: null, repeat: null }],
    ['daily', { dueDate: TODAY, dueTime: null, repeat: { every: 1, unit: 'day', from: 'due' } }],
    [
      'every other week',
      { dueDate: TODAY, dueTime: null, repeat: { every: 2, unit: 'week', from: 'due' } },
    ],
    [
      'every! 3 months',
      { dueDate: TODAY, dueTime: null, repeat: { every: 3, unit: 'month', from: 'completion' } },
    ],
    [
      'every mon, thu and sat at 18:15',
      {
        dueDate: '2026-03-12',
        dueTime: '18:15',
        repeat: { every: 1, unit: 'week', weekdays: ['mon', 'thu', 'sat'], from: 'due' },
      },
    ],
    [
      'every weekend',
      {
        dueDate: '2026-03-14',
        dueTime: null,
        repeat: { every: 1, unit: 'week', weekdays: ['sat', 'sun'], from: 'due' },
      },
    ],
    [
      'every 31st',
      {
        dueDate: '2026-03-31',
        dueTime: null,
        repeat: { every: 1, unit: 'month', monthDay: 31, from: 'due' },
      },
    ],
    [
      'every 5th',
      {
        dueDate: '2026-04-05',
        dueTime: null,
        repeat: { every: 1, unit: 'month', monthDay: 5, from: 'due' },
      },
    ],
    [
      'every 2nd monday',
      {
        dueDate: '2026-04-13',
        dueTime: null,
        repeat: { every: 1, unit: 'month', nthWeekday: { n: 2, weekday: 'mon' }, from: 'due' },
      },
    ],
    [
      'every last day',
      {
        dueDate: '2026-03-31',
        dueTime: null,
        repeat: { every: 1, unit: 'month', monthDay: 31, from: 'due' },
      },
    ],
    [
      'every jan 15',
      { dueDate: '2027-01-15', dueTime: null, repeat: { every: 1, unit: 'year', from: 'due' } },
    ],
    ['someday', null],
    ['every blue moon', null],
    ['2026-02-30', null],
    ['tomorrow at 25:00', null],
  ];
  it.each(cases)('%s', (text, expected) => {
    expect(parseTodoistDate(text, TODAY)).toEqual(expected);
  });
});

describe("TickTick's RRULE", () => {
  it('maps what Tally can keep and says what it cannot', () => {
    expect(repeatOfRrule('RRULE:FREQ=DAILY;INTERVAL=3')).toEqual({
      repeat: { every: 3, unit: 'day', from: 'due' },
      problem: null,
    });
    expect(repeatOfRrule('RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR').repeat).toEqual({
      every: 1,
      unit: 'week',
      weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      from: 'due',
    });
    expect(repeatOfRrule('FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1').repeat).toEqual({
      every: 1,
      unit: 'month',
      nthWeekday: { n: -1, weekday: 'fri' },
      from: 'due',
    });
    expect(repeatOfRrule('RRULE:FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-1').repeat).toEqual({
      every: 2,
      unit: 'month',
      monthDay: 31,
      from: 'due',
    });
    expect(repeatOfRrule('RRULE:FREQ=YEARLY;COUNT=5')).toEqual({
      repeat: { every: 1, unit: 'year', from: 'due' },
      problem: 'its end (Tally repeats have none)',
    });
    expect(repeatOfRrule('RRULE:FREQ=HOURLY')).toEqual({
      repeat: null,
      problem: 'the repeat "RRULE:FREQ=HOURLY" has no equivalent',
    });
    expect(repeatOfRrule('RRULE:FREQ=WEEKLY;INTERVAL=500').repeat).toBeNull();
  });
});

describe('colours', () => {
  it('keeps a swatch, takes the nearest hue otherwise, and the default for greys', () => {
    expect(nearestSwatch('#ef4444')).toBe('#EF4444');
    expect(nearestSwatch('#123456')).toBe('#3B82F6');
    expect(nearestSwatch('#f00')).toBe('#EF4444');
    expect(nearestSwatch('#ff9900')).toBe('#F59E0B');
    expect(nearestSwatch('#7a2fd0')).toBe('#8B5CF6');
    expect(nearestSwatch('#808080')).toBe('#3B82F6');
    expect(nearestSwatch('tomato')).toBe('#3B82F6');
  });
});

describe('repeats in words (the CSV export)', () => {
  it('says the rule', () => {
    expect(describeRepeat({ every: 1, unit: 'day', from: 'due' })).toBe('every day');
    expect(
      describeRepeat({ every: 2, unit: 'week', weekdays: ['mon', 'thu'], from: 'completion' }),
    ).toBe('every 2 weeks on Mon, Thu, from completion');
    expect(
      describeRepeat({
        every: 1,
        unit: 'month',
        nthWeekday: { n: -1, weekday: 'fri' },
        from: 'due',
      }),
    ).toBe('every month on the last Fri');
    expect(describeRepeat({ every: 1, unit: 'year', monthDay: 29, from: 'due' })).toBe(
      'every year',
    );
  });
});

describe('decodeText', () => {
  it('recognises UTF-16 without a byte-order mark', () => {
    const text = 'TYPE,CONTENT\r\ntask,Grüße\r\n';
    expect(decodeText(Buffer.from(text, 'utf16le'))).toEqual({ text, encoding: 'UTF-16LE' });
  });

  it('reads Windows-1252 punctuation, not Latin-1 controls', () => {
    const bytes = Buffer.from([0x93, 0x48, 0x69, 0x94, 0x20, 0x96, 0x20, 0x80, 0x35]);
    expect(decodeText(bytes)).toEqual({ text: '“Hi” – €5', encoding: 'Windows-1252' });
  });
});
