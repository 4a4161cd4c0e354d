import { simpleParser } from 'mailparser';
import { readQuickAddText } from '@tally/contract/quick-add-text';
import { describe, expect, it } from 'vitest';
import { malformation, secretsOf, senderOf, todoOf } from './message.js';

const parse = (headers: string, body = 'Body text') =>
  simpleParser(`${headers}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`, {
    skipHtmlToText: true,
  });

const SECRET = 'abcdefghijklmnopqrst';

// Tuesday 10 March 2026, 11:30 UTC: already Wednesday 00:30 in Auckland.
const context = {
  groups: [{ id: 7, name: 'Home' }],
  now: new Date('2026-03-10T11:30:00Z'),
  timeZone: 'UTC',
  language: null,
  read: readQuickAddText,
};

describe('reading a mail', () => {
  it('finds the secret in Delivered-To, To or Cc, of the configured address only', async () => {
    const mail = await parse(
      [
        `Delivered-To: todo+${SECRET}@tally.example`,
        'To: Someone <someone@else.example>, TODO+BBBBBBBBBBBBBBBBBBBB@Tally.Example',
        `Cc: todo+${SECRET.slice(1)}@tally.example, todo+${'c'.repeat(20)}@other.example`,
        'From: A <a@b.example>',
        'Date: Tue, 10 Mar 2026 09:30:00 +0000',
      ].join('\r\n'),
    );
    expect(secretsOf(mail, 'todo', 'tally.example')).toEqual([SECRET, 'bbbbbbbbbbbbbbbbbbbb']);
    expect(secretsOf(mail, 'tasks', 'tally.example')).toEqual([]);
    expect(senderOf(mail)).toBe('a@b.example');
    expect(malformation(mail)).toBeNull();
  });

  it('reads tags and priority out of the subject, and keeps a subject of tags only', async () => {
    const todo = todoOf(
      await parse('Subject: Fwd:  Pay the   rent @home !! @money\r\nFrom: a@b.example', 'Soon.'),
      context,
    );
    expect(todo).toEqual({
      title: 'Fwd: Pay the rent',
      description: 'Soon.',
      tags: ['home', 'money'],
      priority: 2,
      dueDate: undefined,
      dueTime: undefined,
      repeat: undefined,
      startDate: undefined,
      groupId: undefined,
    });
    expect(todoOf(await parse('Subject: @home', ''), context).title).toBe('@home');
    expect(todoOf(await parse('From: a@b.example', ''), context).title).toBe('(no subject)');
    const long = todoOf(await parse(`Subject: ${'x'.repeat(300)}`, 'y'.repeat(30_000)), context);
    expect(long.title).toHaveLength(200);
    expect(long.description).toHaveLength(20_000);
  });

  it('reads the subject as the web app reads a typed title, in the account zone', async () => {
    const mail = await parse('Subject: Pay rent tomorrow #Home every month\r\nFrom: a@b.example');
    expect(todoOf(mail, context)).toMatchObject({
      title: 'Pay rent',
      dueDate: '2026-03-11',
      repeat: { every: 1, unit: 'month', from: 'due' },
      groupId: 7,
    });
    expect(todoOf(mail, { ...context, timeZone: 'Pacific/Auckland' }).dueDate).toBe('2026-03-12');
    const timed = await parse('Subject: Call the bank by Dec 12 9:30 p1\r\nFrom: a@b.example');
    expect(todoOf(timed, context)).toMatchObject({
      title: 'Call the bank',
      dueDate: '2026-12-12',
      dueTime: '09:30',
      priority: 3,
    });
    const started = await parse('Subject: Plan the trip starts Dec 4\r\nFrom: a@b.example');
    expect(todoOf(started, context)).toMatchObject({
      title: 'Plan the trip',
      startDate: '2026-12-04',
    });
    // A zone that does not exist is read as UTC, not refused.
    expect(todoOf(mail, { ...context, timeZone: 'Nowhere/Atlantis' }).dueDate).toBe('2026-03-11');
  });

  it("reads the subject in the account's language as well as English", async () => {
    const german = await parse('Subject: Miete zahlen morgen jeden Monat\r\nFrom: a@b.example');
    expect(todoOf(german, { ...context, language: 'de' })).toMatchObject({
      title: 'Miete zahlen',
      dueDate: '2026-03-11',
      repeat: { every: 1, unit: 'month', from: 'due' },
    });
    expect(todoOf(german, context).title).toBe('Miete zahlen morgen jeden Monat');
  });

  it('calls a mail without From or Date, or a multipart without a boundary, malformed', async () => {
    expect(malformation(await parse('Date: Tue, 10 Mar 2026 09:30:00 +0000'))).toMatch(/From/);
    expect(malformation(await parse('From: a@b.example'))).toMatch(/Date/);
    const multipart = await simpleParser(
      'From: a@b.example\r\nDate: Tue, 10 Mar 2026 09:30:00 +0000\r\n' +
        'Content-Type: multipart/mixed\r\n\r\n--x\r\n\r\nhi\r\n--x--\r\n',
    );
    expect(malformation(multipart)).toMatch(/boundary/);
  });
});
