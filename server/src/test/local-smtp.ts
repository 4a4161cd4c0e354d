import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A stand-in SMTP server on loopback, inside the test process: it takes the mails Tally sends
 * (with the credentials of its SMTP_URL) and keeps them for the test to read. No mail leaves
 * the machine.
 */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Each header field's whole line, by its lower-case name. */
  headers: Record<string, string>;
}

export interface LocalSmtp {
  /** SMTP_URL for Tally, with the user and password this server asks for. */
  url: string;
  /** Every mail received so far, oldest first. */
  received: ReceivedMail[];
  /** The next mail to `to` not taken yet; waits for it up to `timeoutMs`. */
  take(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** While true, every recipient is refused (a failed send). */
  refuse: boolean;
  /** Holds every send at its recipient until the returned function releases them. */
  hold(): () => void;
  close(): Promise<void>;
}

const SMTP_USER = 'tally';
export const SMTP_PASSWORD = 'smtp-test-password';

export async function startLocalSmtp(): Promise<LocalSmtp> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const state = { refuse: false };
  let held: (() => void)[] | null = null;
  const server = new SMTPServer({
    // Plain SMTP on loopback; the credentials prove SMTP_URL's user and password are used.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(_address, _session, callback) {
      const answer = () => (state.refuse ? callback(new Error('Mailbox unavailable')) : callback());
      if (held) held.push(answer);
      else answer();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            headers: Object.fromEntries(mail.headerLines.map((h) => [h.key, h.line])),
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    received,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    hold() {
      const waiting: (() => void)[] = [];
      held = waiting;
      return () => {
        if (held === waiting) held = null;
        for (const answer of waiting.splice(0)) answer();
      };
    },
    async take(to, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the link to `path` (e.g. /verify-email) in a mail's text. */
export function linkToken(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s/]+${path}#token=([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[1];
}
