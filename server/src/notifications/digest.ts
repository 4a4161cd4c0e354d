import type { Kysely } from 'kysely';
import { addDays } from '@tally/contract/dates';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { localDateTime } from '../shared/calendar.js';
import { type ServerTexts, textsFor } from '../shared/languages/index.js';
import { timeSlicer } from '../shared/time-slices.js';
import type { Mail, Mailer } from '../shared/mailer.js';
import type { ActionLinks } from './action-links.js';
import { escapeHtml } from './email.js';

/**
 * The daily digest e-mail (docs/decisions/170-quiet-hours-and-the-daily-digest.md): at the time
 * the user picked, in their zone, what is overdue, due today and starting today, and how
 * yesterday went. Each process looks every minute; the day's digest is claimed by a conditional
 * UPDATE of `digest_sent_on` to the user's local date, so one process sends it, once a day.
 */

/** A digest not sent within this long after its time (the server was down) waits for tomorrow. */
const SEND_WINDOW_MINUTES = 120;
/**
 * After a failed send the digest waits this long before the next try, doubled after each
 * failure (1, 2, 4 ... minutes): retries fit in the send window.
 */
const RETRY_FIRST_MS = 60_000;
/** Todos listed per part; the rest is a count. */
const LIST_LIMIT = 20;
/** Yesterday's completions and the current streak, from Insights (composed in app.ts). */
export type DayRecord = (
  userId: number,
  yesterday: string,
  zone: string,
) => Promise<{ doneYesterday: number; streak: number }>;

interface DigestTodo {
  title: string;
  due_date: string | null;
  due_time: string | null;
}

export interface DigestContent {
  overdue: DigestTodo[];
  today: DigestTodo[];
  starting: DigestTodo[];
  doneYesterday: number;
  streak: number;
}

/** The digest in the user's language (decision 179), its dates and times as the language writes them. */
function digestMail(
  texts: ServerTexts,
  to: string,
  date: string,
  content: DigestContent,
  links: { app: string; unsubscribe: string },
): Mail {
  const parts: { heading: string; todos: DigestTodo[]; when: (todo: DigestTodo) => string }[] = (
    [
      {
        heading: texts.digest.overdue,
        todos: content.overdue,
        when: (todo) => texts.digest.dueOn(texts.date(todo.due_date ?? '')),
      },
      {
        heading: texts.digest.dueToday,
        todos: content.today,
        when: (todo) => (todo.due_time ? texts.digest.at(texts.time(todo.due_time)) : ''),
      },
      { heading: texts.digest.startingToday, todos: content.starting, when: () => '' },
    ] satisfies { heading: string; todos: DigestTodo[]; when: (todo: DigestTodo) => string }[]
  ).filter((part) => part.todos.length > 0);
  const yesterday = texts.digest.yesterday(content.doneYesterday, content.streak);
  const nothing = parts.length === 0 ? [texts.digest.nothing] : [];
  const text = [
    ...parts.map(
      (part) =>
        `${part.heading}:\n${part.todos.map((todo) => `- ${todo.title}${part.when(todo)}`).join('\n')}`,
    ),
    ...nothing,
    yesterday,
    `${texts.digest.open}: ${links.app}`,
    `${texts.digest.stop}: ${links.unsubscribe}`,
  ].join('\n\n');
  const html = [
    ...parts.map(
      (part) =>
        `<h2 style="font-size:16px;margin:16px 0 4px">${escapeHtml(part.heading)}</h2><ul>` +
        part.todos
          .map((todo) => `<li>${escapeHtml(todo.title)}${escapeHtml(part.when(todo))}</li>`)
          .join('') +
        '</ul>',
    ),
    ...nothing.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p>${escapeHtml(yesterday)}</p>`,
    `<p><a href="${escapeHtml(links.app)}">${escapeHtml(texts.digest.open)}</a></p>`,
    `<p style="font-size:12px;color:#64748b"><a href="${escapeHtml(links.unsubscribe)}">` +
      `${escapeHtml(texts.digest.stop)}</a></p>`,
  ].join('\n');
  return {
    to,
    subject: texts.digest.subject(texts.date(date), content.overdue.length, content.today.length),
    text: `${text}\n`,
    html:
      `<!doctype html><html lang="${texts.tag}" dir="${texts.dir}">` +
      `<body style="font-family:sans-serif">${html}</body></html>`,
    // One-click unsubscribe (RFC 8058): the mail client posts List-Unsubscribe=One-Click.
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

export function createDigests(options: {
  db: Kysely<Database>;
  clock: Clock;
  mailer: Mailer | null;
  links: ActionLinks;
  publicUrl: string;
  dayRecord: DayRecord;
  onError?: (error: unknown) => void;
}) {
  const { db, clock } = options;
  /** Users whose digest failed today: how often, and when it may be tried again (this process). */
  const retries = new Map<number, { failures: number; at: number }>();

  async function content(userId: number, today: string, zone: string): Promise<DigestContent> {
    const open = () =>
      db
        .selectFrom('todos')
        .select(['title', 'due_date', 'due_time'])
        .where('user_id', '=', userId)
        .where('completed', '=', 0)
        .orderBy('due_date')
        .orderBy('due_time')
        .orderBy('id')
        .limit(LIST_LIMIT);
    const [overdue, dueToday, starting, record] = await Promise.all([
      open().where('due_date', '<', today).execute(),
      open().where('due_date', '=', today).execute(),
      open().where('start_date', '=', today).execute(),
      options.dayRecord(userId, addDays(today, -1), zone),
    ]);
    return { overdue, today: dueToday, starting, ...record };
  }

  return {
    content,

    /** Sends the digests whose time has come today; returns how many went. */
    async tick(): Promise<number> {
      const mailer = options.mailer;
      if (!mailer) return 0;
      const now = clock();
      const due = await db
        .selectFrom('notification_settings')
        .innerJoin('users', 'users.id', 'notification_settings.user_id')
        .select([
          'users.id',
          'users.email',
          'users.time_zone',
          'users.language',
          'notification_settings.digest_minute',
          'notification_settings.digest_sent_on',
        ])
        .where('notification_settings.digest_minute', 'is not', null)
        .where('users.email_verified_at', 'is not', null)
        .where('users.disabled_at', 'is', null)
        .execute();
      let sent = 0;
      const pause = timeSlicer();
      for (const user of due) {
        // Each digest reads the user's lists: requests are answered between two (decision 176).
        await pause();
        const zone = user.time_zone ?? 'UTC';
        const local = localDateTime(now, zone);
        const minute = Number(local.time.slice(0, 2)) * 60 + Number(local.time.slice(3, 5));
        const since = minute - (user.digest_minute ?? 0);
        if (since < 0 || since >= SEND_WINDOW_MINUTES || user.digest_sent_on === local.date) {
          continue;
        }
        const retry = retries.get(user.id);
        if (retry && now < retry.at) continue;
        // The claim: of the processes looking now, one moves the date and sends.
        const claimed = await db
          .updateTable('notification_settings')
          .set({ digest_sent_on: local.date })
          .where('user_id', '=', user.id)
          .where((eb) =>
            eb.or([eb('digest_sent_on', 'is', null), eb('digest_sent_on', '!=', local.date)]),
          )
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) continue;
        const texts = textsFor(user.language);
        const mail = digestMail(
          texts,
          user.email,
          local.date,
          await content(user.id, local.date, zone),
          {
            app: `${options.publicUrl}/todos`,
            unsubscribe: await options.links.unsubscribeUrl(user.id),
          },
        );
        try {
          await mailer.send(mail);
          sent += 1;
          retries.delete(user.id);
        } catch (error) {
          options.onError?.(error);
          // Not sent: the claim is given back, for a later round to try again after a wait.
          const failures = (retry?.failures ?? 0) + 1;
          retries.set(user.id, { failures, at: now + RETRY_FIRST_MS * 2 ** (failures - 1) });
          await db
            .updateTable('notification_settings')
            .set({ digest_sent_on: user.digest_sent_on })
            .where('user_id', '=', user.id)
            .where('digest_sent_on', '=', local.date)
            .execute();
        }
      }
      return sent;
    },
  };
}
