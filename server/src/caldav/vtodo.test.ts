import { beforeAll, describe, expect, it } from 'vitest';
import { loadIcal, parseVtodo, type RenderedTodo, renderVtodo, type VtodoFields } from './vtodo.js';

// The server loads ical.js at the first CalDAV request (caldav/auth.ts); here, before the tests.
beforeAll(loadIcal);

const todo = (uid: string, dueDate: string): RenderedTodo => ({
  uid,
  title: 'Water the plants',
  description: null,
  completed: false,
  dueDate,
  dueTime: '09:30',
  startDate: null,
  repeat: null,
  reminders: [],
  durationMinutes: null,
  tags: [],
  priority: 0,
  parentUid: null,
  createdAt: Date.UTC(2026, 0, 1),
  updatedAt: Date.UTC(2026, 0, 2),
  extra: null,
});

const timezoneOf = (text: string) =>
  /BEGIN:VTIMEZONE[\s\S]*?END:VTIMEZONE/.exec(text)?.[0] ?? 'none';

describe('renderVtodo', () => {
  it('writes the same VTIMEZONE for todos in the same zone and years, every time', () => {
    const first = renderVtodo(todo('a', '2026-03-15'), 'Europe/Berlin');
    const second = renderVtodo(todo('b', '2026-07-01'), 'Europe/Berlin');
    expect(timezoneOf(first)).toContain('TZID:Europe/Berlin');
    expect(timezoneOf(first)).toContain('TZOFFSETTO:+0200');
    expect(timezoneOf(second)).toBe(timezoneOf(first));
    expect(renderVtodo(todo('a', '2026-03-15'), 'Europe/Berlin')).toBe(first);
    expect(first).toContain('DUE;TZID=Europe/Berlin:20260315T093000');
  });

  it('writes another zone its own VTIMEZONE', () => {
    const text = renderVtodo(todo('c', '2026-03-15'), 'America/New_York');
    expect(timezoneOf(text)).toContain('TZID:America/New_York');
    expect(timezoneOf(text)).toContain('TZOFFSETTO:-0400');
  });
});

/** A calendar object of one VTODO holding `lines`, then `components`. */
const object = (lines: string[], components: string[] = []) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Round trip//EN',
    'BEGIN:VTODO',
    'UID:round-trip',
    'DTSTAMP:20260310T120000Z',
    'SUMMARY:Round trip',
    ...lines,
    ...components,
    'END:VTODO',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

const ALARM = [
  'BEGIN:VALARM',
  'ACTION:DISPLAY',
  'DESCRIPTION:Soon',
  'TRIGGER;RELATED=END:-PT15M',
  'END:VALARM',
];

/**
 * One case per aspect of the codec: the lines a client sends, the fields they mean, the same
 * lines written back while the fields hold, and what Tally writes once a field changes.
 */
const ASPECTS: {
  aspect: string;
  lines: string[];
  components?: string[];
  fields: Partial<VtodoFields>;
  change: Partial<VtodoFields>;
  written: string[];
}[] = [
  {
    aspect: 'summary',
    lines: [],
    fields: { title: 'Round trip' },
    change: { title: 'Changed' },
    written: ['SUMMARY:Changed'],
  },
  {
    aspect: 'description',
    lines: ['DESCRIPTION;LANGUAGE=en:Two litres'],
    fields: { description: 'Two litres' },
    change: { description: 'One' },
    written: ['DESCRIPTION:One'],
  },
  {
    aspect: 'status and completed',
    lines: ['STATUS:COMPLETED', 'PERCENT-COMPLETE:100'],
    fields: { completed: true },
    change: { completed: false },
    written: ['STATUS:NEEDS-ACTION'],
  },
  {
    aspect: 'due, a UTC time',
    lines: ['DUE:20260310T090000Z'],
    fields: { dueDate: '2026-03-10', dueTime: '09:00' },
    change: { dueDate: '2026-03-11' },
    written: ['DUE:20260311T090000Z'],
  },
  {
    aspect: 'due, a date',
    lines: ['DUE;VALUE=DATE:20260310'],
    fields: { dueDate: '2026-03-10', dueTime: null },
    change: { dueDate: '2026-03-12' },
    written: ['DUE;VALUE=DATE:20260312'],
  },
  {
    aspect: 'due, a time in its zone',
    lines: ['DUE;TZID=Europe/Berlin:20260310T090000'],
    fields: { dueDate: '2026-03-10', dueTime: '09:00' },
    change: { dueTime: '10:00' },
    written: ['DUE;TZID=Europe/Berlin:20260310T100000'],
  },
  {
    aspect: 'start',
    lines: ['DTSTART;VALUE=DATE:20260301'],
    fields: { startDate: '2026-03-01' },
    change: { startDate: '2026-03-02' },
    written: ['DTSTART;VALUE=DATE:20260302'],
  },
  {
    aspect: 'duration, a time block moved',
    lines: ['DTSTART;TZID=Europe/Berlin:20260310T090000', 'DURATION:PT45M'],
    fields: { dueDate: '2026-03-10', dueTime: '09:00', startDate: null, durationMinutes: 45 },
    change: { dueTime: '10:30' },
    written: ['DTSTART;TZID=Europe/Berlin:20260310T103000', 'DURATION:PT45M'],
  },
  {
    aspect: 'duration, a time block resized',
    lines: ['DTSTART:20260310T090000Z', 'DURATION:PT1H'],
    fields: { dueDate: '2026-03-10', dueTime: '09:00', startDate: null, durationMinutes: 60 },
    change: { durationMinutes: 90 },
    written: ['DTSTART:20260310T090000Z', 'DURATION:PT90M'],
  },
  {
    aspect: 'duration of days, kept as sent',
    lines: ['DTSTART;VALUE=DATE:20260301', 'DURATION:P2D'],
    fields: { dueDate: null, startDate: '2026-03-01', durationMinutes: null },
    change: { title: 'Changed' },
    written: ['DTSTART;VALUE=DATE:20260301', 'DURATION:P2D'],
  },
  {
    aspect: 'duration beside DUE, kept as sent',
    lines: ['DUE:20260310T090000Z', 'DTSTART:20260309T090000Z', 'DURATION:PT45M'],
    fields: { dueDate: '2026-03-10', dueTime: '09:00', startDate: '2026-03-09' },
    change: { title: 'Changed' },
    written: ['DUE:20260310T090000Z', 'DURATION:PT45M'],
  },
  {
    aspect: 'rrule',
    lines: ['DUE;VALUE=DATE:20260310', 'RRULE:FREQ=WEEKLY;INTERVAL=2'],
    fields: { repeat: { every: 2, unit: 'week', from: 'due' } },
    change: { repeat: { every: 1, unit: 'day', from: 'due' } },
    written: ['RRULE:FREQ=DAILY'],
  },
  {
    aspect: 'priority',
    lines: ['PRIORITY:2'],
    fields: { priority: 3 },
    change: { priority: 1 },
    written: ['PRIORITY:9'],
  },
  {
    aspect: 'categories',
    lines: ['CATEGORIES:home,errands'],
    fields: { tags: ['home', 'errands'] },
    change: { tags: ['home'] },
    written: ['CATEGORIES:home'],
  },
  {
    aspect: 'related-to',
    lines: ['RELATED-TO;RELTYPE=PARENT:parent-1'],
    fields: { parentUid: 'parent-1' },
    change: { parentUid: 'parent-2' },
    written: ['RELATED-TO;RELTYPE=PARENT:parent-2'],
  },
  {
    aspect: 'an alarm as the reminder',
    lines: ['DUE:20260310T090000Z'],
    components: ALARM,
    fields: { reminders: [15] },
    change: { reminders: [30] },
    written: ['TRIGGER;RELATED=END:-PT30M'],
  },
  {
    aspect: 'one alarm per reminder, a day before and at the time',
    lines: ['DUE:20260310T090000Z'],
    components: [
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:At the time',
      'TRIGGER;RELATED=END:PT0S',
      'END:VALARM',
      'BEGIN:VALARM',
      'ACTION:AUDIO',
      'TRIGGER;RELATED=END:-P1D',
      'END:VALARM',
    ],
    fields: { reminders: [1440, 0] },
    // The client's own alarms stay as written while their offsets stay; a new one is Tally's.
    change: { reminders: [1440, 60, 0] },
    written: [
      'TRIGGER;RELATED=END:-P1D',
      'ACTION:AUDIO',
      'TRIGGER;RELATED=END:-PT60M',
      'DESCRIPTION:At the time',
      'TRIGGER;RELATED=END:PT0S',
    ],
  },
  {
    aspect: 'alarms Tally cannot show, kept beside the reminders',
    lines: ['DUE:20260310T090000Z'],
    components: [
      ...ALARM,
      // An absolute trigger, one after the due time and the same offset again.
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Absolute',
      'TRIGGER;VALUE=DATE-TIME:20260309T080000Z',
      'END:VALARM',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:After',
      'TRIGGER;RELATED=END:PT10M',
      'END:VALARM',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Twice',
      'TRIGGER;RELATED=END:-PT15M',
      'END:VALARM',
    ],
    fields: { reminders: [15] },
    change: { reminders: [15, 5] },
    written: [
      'TRIGGER;VALUE=DATE-TIME:20260309T080000Z',
      'TRIGGER;RELATED=END:PT10M',
      'DESCRIPTION:Twice',
      'TRIGGER;RELATED=END:-PT5M',
    ],
  },
  {
    aspect: 'an alarm before a time block (its start)',
    lines: ['DTSTART:20260310T090000Z', 'DURATION:PT45M'],
    components: [
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Soon',
      'TRIGGER:-PT10M',
      'END:VALARM',
    ],
    fields: { dueTime: '09:00', durationMinutes: 45, reminders: [10] },
    change: { reminders: [30] },
    written: ['TRIGGER;RELATED=START:-PT30M'],
  },
  {
    aspect: 'x-props, kept as sent',
    lines: ['X-APPLE-SORT-ORDER:5', 'X-OTHER;X-PARAM=a:b'],
    fields: {},
    change: { title: 'Changed' },
    written: ['X-APPLE-SORT-ORDER:5', 'X-OTHER;X-PARAM=a:b'],
  },
];

describe('each aspect of the codec', () => {
  it.each(ASPECTS)('$aspect: read, written back as sent, and written anew once changed', (c) => {
    const { uid, fields, extra } = parseVtodo(object(c.lines, c.components), 'UTC');
    expect(fields).toMatchObject(c.fields);
    const stored: RenderedTodo = { ...fields, uid, createdAt: 0, updatedAt: 0, extra };
    const unfolded = (text: string) => text.replace(/\r\n /g, '').split('\r\n');
    const again = unfolded(renderVtodo(stored, 'UTC'));
    for (const line of [...c.lines, ...(c.components ?? [])]) expect(again).toContain(line);
    const changed = unfolded(renderVtodo({ ...stored, ...c.change }, 'UTC'));
    for (const line of c.written) expect(changed).toContain(line);
  });
});

describe('reminders as alarms', () => {
  const lines = (text: string) => text.replace(/\r\n /g, '').split('\r\n');
  const triggers = (text: string) => lines(text).filter((line) => line.startsWith('TRIGGER'));

  it('writes one VALARM per reminder, and drops the alarm of a reminder removed', () => {
    const { uid, fields, extra } = parseVtodo(
      object(['DUE:20260310T090000Z'], [...ALARM, ...ALARM.map((l) => l.replace('15M', '2H'))]),
      'UTC',
    );
    expect(fields.reminders).toEqual([120, 15]);
    const stored: RenderedTodo = { ...fields, uid, createdAt: 0, updatedAt: 0, extra };
    expect(triggers(renderVtodo({ ...stored, reminders: [15] }, 'UTC'))).toEqual([
      'TRIGGER;RELATED=END:-PT15M',
    ]);
    expect(triggers(renderVtodo({ ...stored, reminders: [] }, 'UTC'))).toEqual([]);
    const fresh = { ...todo('g', '2026-03-29'), reminders: [1440, 0] };
    expect(triggers(renderVtodo(fresh, 'UTC'))).toEqual([
      'TRIGGER;RELATED=END:-PT1440M',
      'TRIGGER;RELATED=END:PT0S',
    ]);
    // Parsed back: the same reminders.
    expect(parseVtodo(renderVtodo(fresh, 'UTC'), 'UTC').fields.reminders).toEqual([1440, 0]);
  });

  it('reads at most five distinct offsets as reminders and keeps the sixth as sent', () => {
    const alarms = [5, 10, 15, 20, 25, 30].flatMap((minutes) =>
      ALARM.map((line) => line.replace('-PT15M', `-PT${minutes}M`)),
    );
    const { uid, fields, extra } = parseVtodo(object(['DUE:20260310T090000Z'], alarms), 'UTC');
    expect(fields.reminders).toEqual([25, 20, 15, 10, 5]);
    const stored: RenderedTodo = { ...fields, uid, createdAt: 0, updatedAt: 0, extra };
    expect(triggers(renderVtodo({ ...stored, title: 'Changed' }, 'UTC'))).toHaveLength(6);
  });

  it("writes an object stored with one reminder (before several) with the client's alarm", () => {
    const { uid, fields, extra } = parseVtodo(object(['DUE:20260310T090000Z'], ALARM), 'UTC');
    // As such an object was stored: its alarm as `reminder`, its offset remembered alone.
    const old = {
      ...extra,
      reminder: extra.reminders?.[0] ?? null,
      known: { ...extra.known, remind: { value: 15, props: [] } },
    };
    delete old.reminders;
    const stored: RenderedTodo = { ...fields, uid, createdAt: 0, updatedAt: 0, extra: old };
    expect(lines(renderVtodo(stored, 'UTC'))).toContain('DESCRIPTION:Soon');
    expect(triggers(renderVtodo({ ...stored, reminders: [15, 0] }, 'UTC'))).toEqual([
      'TRIGGER;RELATED=END:-PT15M',
      'TRIGGER;RELATED=END:PT0S',
    ]);
  });
});

describe('a time block (DURATION)', () => {
  const lines = (text: string) => text.replace(/\r\n /g, '').split('\r\n');

  it('goes out as DTSTART at the due time and DURATION, never beside DUE', () => {
    const text = renderVtodo({ ...todo('d', '2026-03-29'), durationMinutes: 90 }, 'Europe/Berlin');
    expect(lines(text)).toEqual(
      expect.arrayContaining(['DTSTART;TZID=Europe/Berlin:20260329T093000', 'DURATION:PT90M']),
    );
    expect(text).not.toContain('DUE');
  });

  it('keeps DUE and DTSTART when the todo has a start date of its own', () => {
    const text = renderVtodo(
      { ...todo('e', '2026-03-29'), startDate: '2026-03-20', durationMinutes: 90 },
      'UTC',
    );
    expect(text).toContain('DUE:20260329T093000Z');
    expect(text).not.toContain('DURATION');
  });

  it("turns a client's DUE into DTSTART once Tally gives it a duration, and back without one", () => {
    const { uid, fields, extra } = parseVtodo(object(['DUE:20260310T090000Z']), 'UTC');
    const stored: RenderedTodo = { ...fields, uid, createdAt: 0, updatedAt: 0, extra };
    const block = lines(renderVtodo({ ...stored, durationMinutes: 30 }, 'UTC'));
    expect(block).toEqual(expect.arrayContaining(['DTSTART:20260310T090000Z', 'DURATION:PT30M']));
    expect(block.some((line) => line.startsWith('DUE'))).toBe(false);

    const read = parseVtodo(object(['DTSTART:20260310T090000Z', 'DURATION:PT30M']), 'UTC');
    const again: RenderedTodo = {
      ...read.fields,
      uid,
      createdAt: 0,
      updatedAt: 0,
      extra: read.extra,
    };
    const plain = lines(renderVtodo({ ...again, durationMinutes: null }, 'UTC'));
    expect(plain).toContain('DUE:20260310T090000Z');
    expect(plain.some((line) => line.startsWith('DTSTART') || line.startsWith('DURATION'))).toBe(
      false,
    );
  });

  it("writes a reminder before the due time: before DUE, or before a block's start", () => {
    const timed = { ...todo('f', '2026-03-29'), reminders: [15] };
    expect(renderVtodo(timed, 'UTC')).toContain('TRIGGER;RELATED=END:-PT15M');
    expect(renderVtodo({ ...timed, durationMinutes: 60 }, 'UTC')).toContain(
      'TRIGGER;RELATED=START:-PT15M',
    );
  });

  it('reads DTSTART in its zone and DURATION as the due time and the duration', () => {
    const { fields } = parseVtodo(
      object(['DTSTART;TZID=America/New_York:20261101T013000', 'DURATION:PT45M']),
      'UTC',
    );
    expect(fields).toMatchObject({
      dueDate: '2026-11-01',
      dueTime: '01:30',
      startDate: null,
      durationMinutes: 45,
    });
  });
});
