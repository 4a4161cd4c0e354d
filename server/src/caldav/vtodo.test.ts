import { beforeAll, describe, expect, it } from 'vitest';
import { loadIcal, parseVtodo, type RenderedTodo, renderVtodo } from './vtodo.js';

// The server loads ical.js at the first CalDAV request (caldav/routes.ts); here, before the tests.
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

describe('a time block (DURATION)', () => {
  const block = (text: string) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//EN',
      'BEGIN:VTODO',
      'UID:block-1',
      'DTSTAMP:20260101T000000Z',
      'SUMMARY:Write the report',
      text,
      'END:VTODO',
      'END:VCALENDAR',
      '',
    ].join('\r\n');

  it('goes out as DTSTART at the due time and DURATION, never beside DUE', () => {
    const text = renderVtodo({ ...todo('d', '2026-03-29'), durationMinutes: 90 }, 'Europe/Berlin');
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20260329T093000');
    expect(text).toMatch(/\r\nDURATION:PT90M\r\n/);
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

  it('is read from DTSTART and DURATION as the due time and the duration', () => {
    const { fields } = parseVtodo(
      block('DTSTART;TZID=America/New_York:20261101T013000\r\nDURATION:PT45M'),
      'UTC',
    );
    expect(fields).toMatchObject({
      dueDate: '2026-11-01',
      dueTime: '01:30',
      startDate: null,
      durationMinutes: 45,
    });
  });

  it('reads a DURATION out of range as none, and DUE with its DTSTART as before', () => {
    const { fields } = parseVtodo(block('DTSTART:20261101T090000Z\r\nDURATION:P2D'), 'UTC');
    expect(fields).toMatchObject({ dueDate: null, startDate: '2026-11-01', durationMinutes: null });
    const due = parseVtodo(block('DUE:20261101T100000Z\r\nDTSTART:20261031T090000Z'), 'UTC');
    expect(due.fields).toMatchObject({
      dueDate: '2026-11-01',
      dueTime: '10:00',
      startDate: '2026-10-31',
      durationMinutes: null,
    });
  });
});
