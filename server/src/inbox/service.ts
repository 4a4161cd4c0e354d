import { randomBytes } from 'node:crypto';
import type { Inbox } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { ParsedMail } from 'mailparser';
import type { InboxConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { onFirstUse } from '../shared/on-first-use.js';
import { createTodoService } from '../todos/service.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Quick add's reader holds chrono-node: loaded with the first mail, not at start. */
const loadQuickAdd = onFirstUse(() => import('@tally/contract/quick-add-text'));
/**
 * Reading a mail needs turndown and its DOM (0.4 MB of bundled code): loaded with the first mail
 * taken, not at every start of a server that may never name a mailbox (decision 157).
 */
const loadMessage = onFirstUse(() => import('./message.js'));
/** 100 random bits as 20 characters of base32 (message.ts, SECRET_PATTERN). */
function newSecret(): string {
  const bytes = randomBytes(20);
  return [...bytes].map((byte) => BASE32[byte & 31]).join('');
}

/** A mail's Date before now, within this far back, dates its todo; else the time it was taken. */
const OLDEST_DATE_MS = 30 * 24 * 60 * 60_000;

/** What became of one message (each is moved out of the inbox whatever it was). */
export type Outcome =
  | { kind: 'created'; userId: number; todoId: number }
  | { kind: 'seen-before' }
  | { kind: 'unknown-address' }
  | { kind: 'stranger' }
  | { kind: 'malformed' };

export function createInboxService(options: {
  db: Kysely<Database>;
  clock: Clock;
  inbox: InboxConfig | null;
}) {
  const { db, clock, inbox } = options;

  async function answer(userId: number): Promise<Inbox> {
    const user = await db
      .selectFrom('users')
      .select(['email', 'email_verified_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const verifiedEmail = user.email_verified_at === null ? null : user.email;
    if (inbox === null) return { address: null, onlyFromMyAddresses: true, verifiedEmail };
    let row = await db
      .selectFrom('inbox_addresses')
      .select(['secret', 'only_from_my_addresses'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) {
      // Made on first look; two at once keep whichever came first.
      await db
        .insertInto('inbox_addresses')
        .values({ user_id: userId, secret: newSecret(), created_at: clock() })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      row = await db
        .selectFrom('inbox_addresses')
        .select(['secret', 'only_from_my_addresses'])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
    }
    return {
      address: `${inbox.localPart}+${row.secret}@${inbox.domain}`,
      onlyFromMyAddresses: row.only_from_my_addresses === 1,
      verifiedEmail,
    };
  }

  return {
    get: answer,

    /** A new secret: mail to the old address finds no account from now on. Null without a mailbox. */
    async renew(userId: number): Promise<Inbox | null> {
      if (inbox === null) return null;
      await answer(userId);
      await db
        .updateTable('inbox_addresses')
        .set({ secret: newSecret(), created_at: clock() })
        .where('user_id', '=', userId)
        .execute();
      return answer(userId);
    },

    async setOnlyFromMyAddresses(userId: number, only: boolean): Promise<Inbox> {
      await answer(userId);
      await db
        .updateTable('inbox_addresses')
        .set({ only_from_my_addresses: only ? 1 : 0 })
        .where('user_id', '=', userId)
        .execute();
      return answer(userId);
    },

    /**
     * Makes the todo a message stands for, at most once for its key ({uidvalidity}:{uid}), or
     * nothing: for an address no account has (never made, or renewed since) and for a sender the
     * account does not take mail from. No answer goes back in any case.
     */
    async take(mail: ParsedMail, key: string): Promise<Outcome> {
      if (inbox === null) return { kind: 'unknown-address' };
      const { malformation, secretsOf, senderOf, todoOf } = await loadMessage();
      if (malformation(mail) !== null) return { kind: 'malformed' };
      const secrets = secretsOf(mail, inbox.localPart, inbox.domain);
      if (secrets.length === 0) return { kind: 'unknown-address' };
      const owner = await db
        .selectFrom('inbox_addresses')
        .innerJoin('users', 'users.id', 'inbox_addresses.user_id')
        .select([
          'inbox_addresses.user_id',
          'inbox_addresses.only_from_my_addresses',
          'users.email_lower',
          'users.email_verified_at',
        ])
        .where('inbox_addresses.secret', 'in', secrets)
        .orderBy('inbox_addresses.user_id')
        .executeTakeFirst();
      if (!owner) return { kind: 'unknown-address' };
      if (owner.only_from_my_addresses === 1) {
        const sender = senderOf(mail);
        if (owner.email_verified_at === null || sender !== owner.email_lower) {
          return { kind: 'stranger' };
        }
      }
      const now = clock();
      const sent = mail.date?.getTime();
      const at =
        sent !== undefined && Number.isFinite(sent) && sent <= now && sent > now - OLDEST_DATE_MS
          ? sent
          : now;
      // The subject is read as the web app reads a typed title: in the account's zone (its
      // calendar feed's, else UTC) and against its groups, as of when the mail was sent.
      const [groups, feed, account] = await Promise.all([
        db
          .selectFrom('todo_groups')
          .select(['id', 'name'])
          .where('user_id', '=', owner.user_id)
          .execute(),
        db
          .selectFrom('calendar_feeds')
          .select('time_zone')
          .where('user_id', '=', owner.user_id)
          .executeTakeFirst(),
        db
          .selectFrom('users')
          .select('language')
          .where('id', '=', owner.user_id)
          .executeTakeFirst(),
      ]);
      const timeZone = feed?.time_zone ?? 'UTC';
      const language = account?.language ?? null;
      const { readQuickAddText } = await loadQuickAdd();
      const todo = todoOf(mail, {
        groups,
        now: new Date(at),
        timeZone,
        language,
        read: readQuickAddText,
      });
      return db.transaction().execute(async (trx): Promise<Outcome> => {
        const first = await trx
          .insertInto('inbox_messages')
          .values({ message_key: key, todo_id: null, taken_at: now })
          .onConflict((oc) => oc.column('message_key').doNothing())
          .returning('message_key')
          .executeTakeFirst();
        // Taken before: by this fetcher before a stop, or by another process.
        if (!first) return { kind: 'seen-before' };
        // The todo is made as of the mail's date: its creation time is when it was written.
        const created = await createTodoService(trx, () => at).create(
          owner.user_id,
          {
            title: todo.title,
            description: todo.description,
            ...(todo.tags.length > 0 ? { tags: todo.tags } : {}),
            ...(todo.priority ? { priority: todo.priority } : {}),
            ...(todo.dueDate ? { dueDate: todo.dueDate } : {}),
            ...(todo.dueTime ? { dueTime: todo.dueTime } : {}),
            ...(todo.repeat ? { repeat: todo.repeat } : {}),
            ...(todo.startDate ? { startDate: todo.startDate } : {}),
            ...(todo.groupId === undefined ? {} : { groupId: todo.groupId }),
          },
          timeZone,
        );
        await trx
          .updateTable('inbox_messages')
          .set({ todo_id: created.id })
          .where('message_key', '=', key)
          .execute();
        return { kind: 'created', userId: owner.user_id, todoId: created.id };
      });
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
