import { TZDate } from '@date-fns/tz';
import { AppError } from '../../shared/errors.js';
import { badRequest } from '../../shared/errors.js';
import { advance, movedStart } from '../../todos/service.js';
import { timeSlicer } from '../../shared/time-slices.js';
import { loadIcal, parseVtodo } from '../../caldav/vtodo.js';
import { SourceBuilder, type SourceContext, type SourceFile } from './source.js';

/** Components inside components a calendar file needs (VCALENDAR, VTODO, VALARM: 3). */
const NESTING_MAX = 8;
/** The PRODID of Tally's own calendar feed (server/src/calendar/ics.ts). */
const TALLY_FEED = '-//Tally//Calendar feed//EN';

interface Block {
  kind: string;
  lines: string[];
  /** Its UID (VTODO, VEVENT) or TZID (VTIMEZONE). */
  name: string;
  /** The 1-based line of the file it starts on. */
  line: number;
}

interface Calendar {
  prodid: string;
  name: string | null;
  blocks: Block[];
}

/** The value of a content line `NAME;params:value` or `NAME:value`. */
const valueOf = (line: string) => line.slice(line.indexOf(':') + 1);
const nameOf = (line: string) => /^[A-Za-z0-9-]+/.exec(line)?.[0].toUpperCase() ?? '';
const unescapeText = (value: string) =>
  value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

/**
 * The calendars of a file, each with its components, split on their BEGIN and END lines (the
 * lines unfolded first) before ical.js reads any: each VTODO then goes to the CalDAV codec on its
 * own, so the codec's bounds hold per todo. A file nested deeper than NESTING_MAX, with an END
 * that does not match its BEGIN, or without a VCALENDAR, is refused in a sentence.
 */
function splitCalendars(text: string): Calendar[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const calendars: Calendar[] = [];
  const stack: string[] = [];
  let calendar: Calendar | null = null;
  let block: Block | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    let line = lines[i] ?? '';
    const number = i + 1;
    while (i + 1 < lines.length && /^[ \t]/.test(lines[i + 1] ?? '')) {
      i += 1;
      line += (lines[i] ?? '').substring(1);
    }
    if (line.trim() === '') continue;
    const name = nameOf(line);
    if (name === 'BEGIN') {
      const kind = valueOf(line).trim().toUpperCase();
      stack.push(kind);
      if (stack.length > NESTING_MAX) {
        throw badRequest(`Line ${number}: components are nested deeper than ${NESTING_MAX} levels`);
      }
      if (stack.length === 1) {
        if (kind !== 'VCALENDAR') {
          throw badRequest(`Line ${number}: the file must hold VCALENDARs, not ${kind}`);
        }
        calendar = { prodid: '', name: null, blocks: [] };
        calendars.push(calendar);
        continue;
      }
      if (stack.length === 2) block = { kind, lines: [], name: '', line: number };
    } else if (name === 'END') {
      const kind = valueOf(line).trim().toUpperCase();
      if (stack.pop() !== kind) {
        throw badRequest(`Line ${number}: END:${kind} does not close the component it is in`);
      }
      if (stack.length === 0) {
        calendar = null;
        continue;
      }
      if (stack.length === 1 && block) {
        block.lines.push(line);
        calendar?.blocks.push(block);
        block = null;
        continue;
      }
    } else if (stack.length === 1 && calendar) {
      if (name === 'PRODID') calendar.prodid = valueOf(line).trim();
      if (name === 'X-WR-CALNAME') calendar.name = unescapeText(valueOf(line)).trim();
      continue;
    } else if (stack.length === 2 && block && (name === 'UID' || name === 'TZID')) {
      block.name = valueOf(line).trim();
    } else if (stack.length === 0) {
      throw badRequest(`Line ${number}: text outside any VCALENDAR; this is not an iCalendar file`);
    }
    block?.lines.push(line);
  }
  if (stack.length > 0) throw badRequest(`The file ends inside ${stack.at(-1) ?? 'a component'}`);
  if (calendars.length === 0) {
    throw badRequest('This is not an iCalendar file: it holds no BEGIN:VCALENDAR');
  }
  return calendars;
}

/** iCalendar's basic date-time (20240418T084019, Z for UTC) as epoch ms; null if not one. */
function basicInstant(value: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?/.exec(value.trim());
  if (!m) return null;
  const [year = 0, month = 1, day = 1, hours = 0, minutes = 0, seconds = 0] = m
    .slice(1)
    .map((part) => Number(part ?? 0));
  const ms = Date.UTC(year, month - 1, day, hours, minutes, seconds);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The instant of a CREATED, LAST-MODIFIED or COMPLETED line. Nextcloud Tasks writes these as
 * floating times (no Z): the clock of the device that wrote them, taken as the caller's zone, as
 * its dates are; a time in UTC or a bare date is read as basicInstant reads it.
 */
function stampOf(line: string, zone: string): number | null {
  const value = valueOf(line).trim();
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (!m) return basicInstant(value);
  const [year = 0, month = 1, day = 1, hours = 0, minutes = 0, seconds = 0] = m
    .slice(1)
    .map(Number);
  const ms = new TZDate(year, month - 1, day, hours, minutes, seconds, zone).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The occurrences a repeating task's overrides (components with its UID and a RECURRENCE-ID)
 * mark done, by their day (YYYY-MM-DD), each with the instant it was done: eM Client completes
 * an occurrence so, leaving the task itself open on the same due date.
 */
function completedOccurrences(overrides: Block[], zone: string): Map<string, number> {
  const done = new Map<string, number>();
  for (const block of overrides) {
    const line = (name: string) => block.lines.find((l) => nameOf(l) === name) ?? null;
    const recurrence = line('RECURRENCE-ID');
    const day = recurrence ? /^(\d{4})(\d{2})(\d{2})/.exec(valueOf(recurrence).trim()) : null;
    if (!day) continue;
    const status = line('STATUS');
    const percent = line('PERCENT-COMPLETE');
    const completedLine = line('COMPLETED');
    const isDone =
      (status !== null && valueOf(status).trim().toUpperCase() === 'COMPLETED') ||
      (percent !== null && Number(valueOf(percent)) === 100) ||
      completedLine !== null;
    const stamp = completedLine ?? line('LAST-MODIFIED') ?? line('DTSTAMP');
    const at = stamp ? stampOf(stamp, zone) : null;
    if (isDone && at !== null) done.set(`${day[1]}-${day[2]}-${day[3]}`, at);
  }
  return done;
}

const dayBefore = (basic: string) => {
  const ms = basicInstant(basic);
  return ms === null
    ? basic
    : new Date(ms - 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
};

/**
 * An event of Tally's own feed as the VTODO it was made from: the feed writes a todo's due as
 * DTSTART, or (a todo with a start date) its start as DTSTART and its due as DTEND, exclusive
 * for a day. RDATEs (the feed's occurrences ahead) and TRANSP are the feed's, not the todo's.
 */
function feedEventAsTodo(lines: string[]): string[] {
  const hasEnd = lines.some((line) => nameOf(line) === 'DTEND');
  const out: string[] = [];
  for (const line of lines) {
    const name = nameOf(line);
    if (name === 'RDATE' || name === 'TRANSP') continue;
    if (name === 'END') out.push('END:VTODO');
    else if (name === 'DTSTART' && !hasEnd) out.push(`DUE${line.slice(7)}`);
    else if (name === 'DTEND') {
      const value = valueOf(line);
      const params = line.slice(5, line.indexOf(':'));
      out.push(
        /VALUE=DATE(?!-)/i.test(params)
          ? `DUE${params}:${dayBefore(value)}`
          : `DUE${params}:${value}`,
      );
    } else out.push(line);
  }
  return ['BEGIN:VTODO', ...out];
}

/**
 * iCalendar files of tasks (RFC 5545 VTODOs), as Nextcloud Tasks, Radicale, Baïkal,
 * Thunderbird and Apple Reminders export a task list, and Tally's own calendar feed (its events
 * are its todos). Each task is read by the CalDAV codec (../../caldav/vtodo.ts), so a task
 * imports as it would sync: SUMMARY the title, DESCRIPTION, STATUS/COMPLETED the completed
 * state and its time, DUE (its zone) the due date and time, DTSTART the start date, RRULE the
 * repeat, PRIORITY, CATEGORIES the tags, RELATED-TO the parent; CREATED and LAST-MODIFIED its
 * times. The calendar's name (X-WR-CALNAME) is the group of its tasks. A task the codec refuses
 * (no UID, a title too long) is skipped with the codec's reason; a repeat Tally has no form for
 * comes in without it, with a warning. Events of other calendars are skipped: they are not
 * tasks. A task is known again by its UID.
 */
export async function readIcs(input: string, context: SourceContext): Promise<SourceFile> {
  const calendars = splitCalendars(input);
  await loadIcal();
  const source = new SourceBuilder();
  const pause = timeSlicer();
  let count = 0;
  for (const calendar of calendars) {
    const feed = calendar.prodid === TALLY_FEED;
    const group =
      !feed && calendar.name
        ? source.declareGroup(
            { name: calendar.name, color: null, createdAt: null },
            null,
            'calendar',
          )
        : null;
    const zones = new Map(
      calendar.blocks.filter((b) => b.kind === 'VTIMEZONE').map((b) => [b.name, b.lines]),
    );
    // A task's blocks by UID: the task and its overridden occurrences (RECURRENCE-ID).
    const tasks = new Map<string, Block[]>();
    for (const block of calendar.blocks) {
      if (block.kind === 'VTODO' || (feed && block.kind === 'VEVENT')) {
        const key = block.name || `line ${block.line}`;
        tasks.set(key, [...(tasks.get(key) ?? []), block]);
      } else if (block.kind === 'VEVENT') {
        source.skip(block.line, `line ${block.line}`, 'An event, not a task');
      }
    }
    for (const [uid, blocks] of tasks) {
      count += 1;
      await pause();
      const first = blocks[0];
      if (!first) continue;
      const where = `line ${first.line}`;
      const body = blocks.flatMap((block) =>
        block.kind === 'VEVENT' ? feedEventAsTodo(block.lines.slice(1)) : block.lines,
      );
      const used = [...zones].filter(([tzid]) =>
        body.some((line) => line.includes(`TZID=${tzid}`)),
      );
      const object = [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Tally//Import//EN',
        ...used.flatMap(([, lines]) => lines),
        ...body,
        'END:VCALENDAR',
        '',
      ].join('\r\n');
      let parsed: ReturnType<typeof parseVtodo>;
      try {
        parsed = parseVtodo(object, context.zone);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        source.skip(first.line, where, error.message.replace(/^body: /, ''));
        continue;
      }
      const { fields, customRepeat } = parsed;
      if (customRepeat) {
        // Thunderbird repeats a task from its start when it has no due date; Tally's repeats
        // count from a due date, so such a rule is left out for want of one, whatever the rule.
        source.warn(
          first.line,
          where,
          fields.dueDate === null
            ? `Its repeat (${customRepeat}) needs a due date, which it has not: imported without it`
            : `Its repeat (${customRepeat}) is not one Tally has: imported without it`,
        );
      }
      // Imports keep no reminders; those the calendar app set are named, not dropped unsaid.
      for (const minutes of fields.reminders) {
        source.warn(
          first.line,
          where,
          `Its reminder (${minutes} minutes before the due time) is not imported`,
        );
      }
      const property = (name: string) =>
        blocks[0]?.lines.find((line) => nameOf(line) === name) ?? null;
      const completedLine = property('COMPLETED');
      const completedAt = completedLine ? stampOf(completedLine, context.zone) : null;
      const createdLine = property('CREATED');
      const modifiedLine = property('LAST-MODIFIED') ?? property('DTSTAMP');
      const createdAt = createdLine ? stampOf(createdLine, context.zone) : null;
      const planning = source.planning(context.checkPlanning, first.line, where, {
        dueDate: fields.dueDate,
        dueTime: fields.dueTime,
        repeat: fields.repeat,
      });
      // Occurrences done in overrides are completions; the task is due on the next one left,
      // its start moved as many days, as completing it in Tally would.
      const done = completedOccurrences(blocks.slice(1), context.zone);
      const occurrences: { at: number; dueDate: string }[] = [];
      let next = planning;
      let startDate = fields.startDate;
      while (next.repeat && next.dueDate && occurrences.length < done.size) {
        const at = done.get(next.dueDate);
        if (at === undefined) break;
        occurrences.push({ at, dueDate: next.dueDate });
        const advanced = advance(next, at, context.zone);
        if (!advanced) break;
        startDate = movedStart(startDate, next.dueDate, advanced.dueDate);
        next = advanced;
      }
      source.addTodo(
        {
          line: first.line,
          where,
          key: uid,
          title: fields.title,
          description: fields.description,
          group,
          completed: fields.completed,
          ...next,
          startDate: source.startDate(startDate, first.line, where),
          tags: source.tags(fields.tags, first.line, where),
          priority: fields.priority,
          createdAt,
          updatedAt: modifiedLine ? stampOf(modifiedLine, context.zone) : createdAt,
          completions: [
            ...occurrences,
            ...(fields.completed && completedAt !== null
              ? [{ at: completedAt, dueDate: next.dueDate }]
              : []),
          ],
        },
        { id: uid, parentId: fields.parentUid || null },
      );
    }
  }
  if (count === 0 && source.file.skipped.length === 0) {
    throw badRequest('The calendar holds no tasks (VTODOs)');
  }
  source.settleParents();
  return source.file;
}
