import { randomUUID } from 'node:crypto';
import { ImapFlow } from 'imapflow';
import type { Kysely } from 'kysely';
import { simpleParser } from 'mailparser';
import type { FastifyBaseLogger } from 'fastify';
import type { InboxConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import type { InboxService, Outcome } from './service.js';
import { errorText, INBOX_LEASE, type InboxStatus } from '../shared/inbox-status.js';

/** A larger message is moved to the processed folder unread: no todo needs more. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface FetcherOptions {
  db: Kysely<Database>;
  clock: Clock;
  inbox: InboxConfig;
  service: InboxService;
  log: FastifyBaseLogger;
  /** Where the fetcher tells the admin page's health what it is doing. */
  status: InboxStatus;
  /** Told of each todo made, so open apps show it at once. */
  onCreated: (userId: number, todoId: number) => void;
  /** How long the fetcher's lease holds without renewal: a process that dies frees it after this. */
  leaseMs?: number;
  /** How often a process without the lease looks whether it is free, and waits after a failure. */
  retryMs?: number;
}

export interface Fetcher {
  stop(): Promise<void>;
}

type Taken = Outcome | { kind: 'too-large' } | { kind: 'unreadable' };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * The inbox fetcher (docs/decisions/140-email-to-task-over-imap.md): one IMAP connection across
 * every process on the database, held by whichever process has the lease in job_leases (renewed
 * while it runs, free again when it stops or dies). It takes every message in the mailbox, then
 * waits in IDLE (imapflow starts it when the connection is free) and takes each new one as it
 * arrives. Each message ends in the processed folder, whatever became of it, so a restart looks
 * at only what is new; inbox_messages keeps a message from making two todos.
 */
export function startInboxFetcher(options: FetcherOptions): Fetcher {
  const { db, clock, inbox, service, log, status } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const retryMs = options.retryMs ?? 15_000;
  const holder = randomUUID();
  status.holder = holder;
  const failure = (error: unknown) => {
    status.lastError = { at: clock(), message: errorText(error, [inbox.password, inbox.user]) };
  };
  let stopped = false;
  let client: ImapFlow | null = null;
  let wake: (() => void) | null = null;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  /** Takes the lease when it is free (or already this process's), or renews it; true when held. */
  async function holdLease(): Promise<boolean> {
    const now = clock();
    await db
      .insertInto('job_leases')
      .values({ name: INBOX_LEASE, lease_until: 0, runs: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const taken = await db
      .updateTable('job_leases')
      .set({ holder, lease_until: now + leaseMs })
      .where('name', '=', INBOX_LEASE)
      .where((eb) => eb.or([eb('lease_until', '<=', now), eb('holder', '=', holder)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  async function releaseLease() {
    await db
      .updateTable('job_leases')
      .set({ lease_until: 0 })
      .where('name', '=', INBOX_LEASE)
      .where('holder', '=', holder)
      .execute();
  }

  async function takeOne(imap: ImapFlow, uid: number, uidValidity: string): Promise<Taken> {
    const head = await imap.fetchOne(String(uid), { uid: true, size: true }, { uid: true });
    if (!head) return { kind: 'unreadable' };
    if ((head.size ?? 0) > MAX_MESSAGE_BYTES) return { kind: 'too-large' };
    const whole = await imap.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
    if (!whole || !whole.source) return { kind: 'unreadable' };
    let mail;
    try {
      mail = await simpleParser(whole.source, {
        skipImageLinks: true,
        skipTextToHtml: true,
        // A plain-text part is taken as it is; without one, the HTML becomes Markdown (message.ts).
        skipHtmlToText: true,
      });
    } catch {
      return { kind: 'unreadable' };
    }
    return service.take(mail, `${inbox.mailbox}:${uidValidity}:${uid}`);
  }

  /** Takes every message in the mailbox now, each moved to the processed folder after. */
  async function takeAll(imap: ImapFlow) {
    const lock = await imap.getMailboxLock(inbox.mailbox);
    try {
      const uidValidity = imap.mailbox === false ? '0' : String(imap.mailbox.uidValidity);
      const uids = (await imap.search({ all: true }, { uid: true })) || [];
      for (const uid of uids) {
        if (stopped) return;
        const outcome = await takeOne(imap, uid, uidValidity);
        if (outcome.kind === 'created') options.onCreated(outcome.userId, outcome.todoId);
        // Never the address or the sender: only what became of it.
        log.info({ inbox: outcome.kind }, 'inbox message taken');
        status.lastMailAt = clock();
        await imap.messageMove(String(uid), inbox.processedFolder, { uid: true });
      }
    } finally {
      lock.release();
    }
  }

  /** One connection, from login until it drops, the lease is lost or the fetcher stops. */
  async function session() {
    const imap = new ImapFlow({
      host: inbox.host,
      port: inbox.port,
      secure: inbox.secure,
      // The password never crosses a network in the clear: STARTTLS is required off loopback.
      ...(inbox.secure || LOOPBACK.has(inbox.host) ? {} : { doSTARTTLS: true }),
      auth: { user: inbox.user, pass: inbox.password },
      // IDLE a second after the last command, not imapflow's 15 s: new mail is told at once.
      autoIdleDelay: 1000,
      logger: false,
    });
    client = imap;
    imap.on('error', (error: unknown) => {
      failure(error);
      log.warn({ err: error }, 'inbox connection failed');
    });
    const closed = new Promise<void>((resolve) => imap.once('close', () => resolve()));
    let round: Promise<void> = Promise.resolve();
    let failed: unknown = null;
    const again = () => {
      round = round
        .then(() => takeAll(imap))
        .catch((error: unknown) => {
          failed = error;
          imap.close();
        });
    };
    // The renewal in flight is awaited before the session ends: on PostgreSQL it could otherwise
    // land after the lease is released and hold it for a process that has stopped.
    let renewing: Promise<void> = Promise.resolve();
    const renewal = setInterval(
      () => {
        renewing = holdLease().then(
          (held) => {
            if (!held) imap.close();
          },
          () => imap.close(),
        );
      },
      Math.max(1000, Math.floor(leaseMs / 3)),
    );
    try {
      await imap.connect();
      const made = await imap.mailboxCreate(inbox.processedFolder).catch(() => null);
      if (made?.created) log.info('inbox processed folder made');
      await imap.mailboxOpen(inbox.mailbox);
      status.connected = true;
      imap.on('exists', again);
      again();
      await closed;
      await round;
    } finally {
      clearInterval(renewal);
      await renewing;
      status.connected = false;
      client = null;
      imap.close();
    }
    if (failed) throw failed;
  }

  const running = (async () => {
    while (!stopped) {
      let held = false;
      try {
        held = await holdLease();
        if (held) await session();
      } catch (error) {
        failure(error);
        log.warn({ err: error }, 'inbox fetcher failed; trying again');
      } finally {
        if (held) await releaseLease().catch(() => undefined);
      }
      if (!stopped) await sleep(retryMs);
    }
  })();

  return {
    async stop() {
      stopped = true;
      client?.close();
      wake?.();
      await running;
      status.holder = null;
    },
  };
}
