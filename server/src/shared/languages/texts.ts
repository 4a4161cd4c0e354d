import type { LanguageTag } from '@tally/contract/languages';

/**
 * Every text the server writes for a person, in one language (docs/decisions/179-server-texts.md):
 * e-mails, notifications, the pages signed links open, and names a calendar app shows. A text
 * with values is a function of them; the type makes a language without one of them a compile
 * error, and languages.test.ts checks each is there and translated.
 */
export interface ServerTexts {
  readonly tag: LanguageTag;
  readonly dir: 'ltr' | 'rtl';
  /** A calendar date (YYYY-MM-DD) as the language writes it. */
  date(iso: string): string;
  /** A wall-clock time (HH:mm) as the language writes it. */
  time(hhmm: string): string;

  hello(username: string): string;
  verifyEmail: {
    subject: string;
    intro(email: string): string;
    validity: string;
    ignore: string;
  };
  resetPassword: {
    subject: string;
    intro: string;
    validity: string;
    ignore: string;
  };

  reminder: {
    title(todo: string): string;
    /** Date and time as date() and time() wrote them. */
    due(date: string, time: string): string;
    /** The title of a channel's test message. */
    test: string;
  };
  /** A reminder's buttons and links. */
  actions: { complete: string; 'snooze-10m': string; 'snooze-1h': string; tomorrow: string };

  /** The pages a reminder's and the digest's signed links open. */
  pages: {
    invalidTitle: string;
    invalidBody: string;
    usedTitle: string;
    usedBody: string;
    completed: string;
    snoozed: { 'snooze-10m': string; 'snooze-1h': string; tomorrow: string };
    unsubscribeTitle: string;
    unsubscribeButton: string;
    unsubscribedTitle: string;
    unsubscribedBody: string;
  };

  digest: {
    /** The date as date() wrote it; overdue is left out at 0. */
    subject(date: string, overdue: number, dueToday: number): string;
    overdue: string;
    dueToday: string;
    startingToday: string;
    /** After an overdue todo's title: its due date as date() wrote it. */
    dueOn(date: string): string;
    /** After a title due today: its time as time() wrote it. */
    at(time: string): string;
    nothing: string;
    /** The streak is left out at 0. */
    yesterday(done: number, streak: number): string;
    open: string;
    stop: string;
  };

  channelOff: {
    subject(channel: string): string;
    body(channel: string, settingsUrl: string): string;
  };

  /** The CalDAV calendar of the todos in no group. */
  ungroupedCalendar: string;
}

/** Intl's plural categories; `other` is the one every language has. */
type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/**
 * A count in words: the form Intl.PluralRules picks for the language, `#` replaced by the number
 * as the language writes it. A form the language needs but `forms` lacks throws, so that
 * languages.test.ts, which counts through every category, fails on it.
 */
export function plural(tag: LanguageTag, n: number, forms: PluralForms): string {
  const category = new Intl.PluralRules(tag).select(n);
  const form = forms[category];
  if (form === undefined) throw new Error(`${tag}: no "${category}" form for ${n}`);
  return form.replaceAll('#', new Intl.NumberFormat(tag).format(n));
}

const isoDate = /^(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})$/;
const isoTime = /^(?<h>\d{2}):(?<min>\d{2})$/;

/**
 * Dates and times written by Intl in the language. The values are already the person's local
 * date and wall-clock time (a reminder's due date and time, the digest's day in their zone), so
 * they are formatted as UTC instants, which leaves them as they are. Anything else (a channel
 * test has no date) stays as it came. Each formatter is made at its first use: made when the
 * languages load, the sixteen of them read every language's ICU data at start
 * (docs/decisions/186-what-a-start-leaves-for-later.md).
 */
export function intlDate(tag: LanguageTag): (iso: string) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (iso) => {
    const { y, m, d }: Partial<Record<string, string>> = isoDate.exec(iso)?.groups ?? {};
    if (!y || !m || !d) return iso;
    format ??= new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' });
    return format.format(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  };
}

export function intlTime(tag: LanguageTag): (hhmm: string) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (hhmm) => {
    const { h, min }: Partial<Record<string, string>> = isoTime.exec(hhmm)?.groups ?? {};
    if (!h || !min) return hhmm;
    format ??= new Intl.DateTimeFormat(tag, { timeStyle: 'short', timeZone: 'UTC' });
    return format.format(Date.UTC(2000, 0, 1, Number(h), Number(min)));
  };
}

/** An e-mail's HTML for a right-to-left language is marked so, as mail clients need it. */
export const directed = (texts: ServerTexts, html: string): string =>
  texts.dir === 'rtl' ? `<div dir="rtl" lang="${texts.tag}">${html}</div>` : html;
