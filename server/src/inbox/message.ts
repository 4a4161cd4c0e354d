import { LIMITS, type Repeat } from '@tally/contract';
import type { readQuickAddText } from '@tally/contract/quick-add-text';
import type { AddressObject, ParsedMail } from 'mailparser';
import TurndownService from 'turndown';

/**
 * What a parsed mail says to e-mail to task: to whom (the secret of todo+{secret}@{domain}), from
 * whom, and the todo it stands for. Pure, so each rule is tested without a mailbox.
 */

/** 20 characters of a-z and 2-7 (base32, 100 bits): lower case, as some mail systems rewrite it. */
const SECRET_PATTERN = /^[a-z2-7]{20}$/;

const NO_SUBJECT = '(no subject)';
const SUBJECT_READ_MAX = 2000;

export interface MailTodo {
  title: string;
  description: string | null;
  tags: string[];
  priority: 1 | 2 | 3 | undefined;
  dueDate: string | undefined;
  dueTime: string | undefined;
  repeat: Repeat | undefined;
  startDate: string | undefined;
  groupId: number | undefined;
}

/** What the subject is read against: the account's groups, and its day and hour when it came. */
interface SubjectContext {
  groups: readonly { id: number; name: string }[];
  now: Date;
  timeZone: string;
  /** The account's language: the subject's dates and repeats may be written in it (decision 180). */
  language: string | null;
  /** The quick-add reader, loaded at its first use (it holds chrono-node). */
  read: typeof readQuickAddText;
}

const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) =>
    object.value.flatMap((entry) => (entry.address ? [entry.address.toLowerCase()] : [])),
  );

/** Every address the mail was delivered to: the envelope's when the server wrote it, and the headers'. */
function recipientsOf(mail: ParsedMail): string[] {
  const envelope = ['delivered-to', 'x-original-to', 'envelope-to'].flatMap((name) => {
    const value = mail.headers.get(name);
    const values = Array.isArray(value) ? value : [value];
    return values.flatMap((entry) => {
      if (typeof entry === 'string') return [entry];
      if (entry && typeof entry === 'object' && 'value' in entry) {
        return addressesOf(entry as AddressObject);
      }
      return [];
    });
  });
  return [...envelope, ...addressesOf(mail.to), ...addressesOf(mail.cc)].map((address) =>
    address.trim().replace(/^<|>$/g, '').toLowerCase(),
  );
}

/** The secrets of the account addresses the mail went to (todo+{secret}@{domain}), first seen first. */
export function secretsOf(mail: ParsedMail, localPart: string, domain: string): string[] {
  const secrets = new Set<string>();
  for (const address of recipientsOf(mail)) {
    const at = address.lastIndexOf('@');
    if (at < 0 || address.slice(at + 1) !== domain) continue;
    const local = address.slice(0, at);
    if (!local.startsWith(`${localPart}+`)) continue;
    const secret = local.slice(localPart.length + 1);
    if (SECRET_PATTERN.test(secret)) secrets.add(secret);
  }
  return [...secrets];
}

/**
 * Why a mail is not taken as one, or null when it is: every mail has a From and a Date (RFC 5322),
 * and a multipart body names the boundary between its parts (RFC 2046).
 */
export function malformation(mail: ParsedMail): string | null {
  if (addressesOf(mail.from).length === 0) return 'no From address';
  if (!mail.headers.has('date') || !Number.isFinite(mail.date?.getTime())) return 'no Date';
  const type = mail.headers.get('content-type');
  if (type && typeof type === 'object' && 'value' in type && 'params' in type) {
    const { value, params } = type as { value: string; params: Record<string, string> };
    if (value.toLowerCase().startsWith('multipart/') && !params.boundary) {
      return 'a multipart body without a boundary';
    }
  }
  return null;
}

/** The sender's address (the From header), lower case, or null when it has none. */
export function senderOf(mail: ParsedMail): string | null {
  return addressesOf(mail.from)[0] ?? null;
}

let turndown: TurndownService | null = null;

/** HTML to Markdown (turndown); images, scripts and styles leave nothing. */
function markdownOf(html: string): string {
  if (turndown === null) {
    turndown = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
    });
    turndown.remove(['script', 'style', 'head', 'title']);
    // Images are mostly trackers and logos: a todo keeps the words (a rule, as turndown's own
    // image rule comes before its removals).
    turndown.addRule('no-images', { filter: 'img', replacement: () => '' });
  }
  return turndown.turndown(html);
}

const cut = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

/**
 * The todo: the subject read as the web app's quick add reads a typed title (date, time, #Group,
 * repeat, @tags, priority, start date), the rest its title; the plain-text body, or the HTML one as Markdown,
 * its description.
 */
export function todoOf(mail: ParsedMail, context: SubjectContext): MailTodo {
  // A title holds 200 characters: a longer subject is cut, so no huge header is read word by word.
  const subject = (mail.subject ?? '').slice(0, SUBJECT_READ_MAX).replace(/\s+/g, ' ').trim();
  const read = context.read(subject, context);
  const title = read.title;
  const text =
    mail.text?.trim() || (typeof mail.html === 'string' ? markdownOf(mail.html).trim() : '');
  return {
    title: cut(title || subject || NO_SUBJECT, LIMITS.todoTitleMax),
    description: text ? cut(text, LIMITS.todoDescriptionMax) : null,
    tags: (read.tags ?? []).slice(0, LIMITS.tagsPerTodoMax),
    priority: read.priority,
    dueDate: read.dueDate,
    dueTime: read.dueTime,
    repeat: read.repeat,
    startDate: read.startDate,
    groupId: read.group?.id,
  };
}
