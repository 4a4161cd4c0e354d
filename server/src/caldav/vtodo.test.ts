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
  remindMinutesBefore: null,
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
    fields: { remindMinutesBefore: 15 },
    change: { remindMinutesBefore: 30 },
    written: ['TRIGGER;RELATED=END:-PT30M'],
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
