import { beforeAll, describe, expect, it } from 'vitest';
import { loadIcal, type RenderedTodo, renderVtodo } from './vtodo.js';

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
