import type { Transporter } from 'nodemailer';

/** One e-mail: every message goes as plain text and as HTML. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields (List-Unsubscribe on the digest). */
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Hands the message to the SMTP server; rejects when it is refused or cannot be reached. */
  send(mail: Mail): Promise<void>;
  /** Connects and signs in to the SMTP server without sending (the admin page's health). */
  verify(): Promise<void>;
}

/** How long a send may wait for the SMTP server, so that no request waits on a dead server. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * E-mail over SMTP (SMTP_URL: smtp:// or smtps://, with credentials if the server wants them),
 * through nodemailer. One connection per message: Tally sends a few mails an hour, and a pool
 * would hold a connection open (and the process alive) for nothing. nodemailer is loaded at the
 * first message: its modules would otherwise take heap in every server, most of which never
 * sends one (docs/performance.md, Memory).
 */
export function createMailer(smtpUrl: string, from: string): Mailer {
  let transport: Promise<Transporter> | null = null;
  const open = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({ url: smtpUrl, ...TIMEOUTS }, { from }),
    ));
  return {
    async send(mail) {
      await (await open()).sendMail(mail);
    },
    async verify() {
      await (await open()).verify();
    },
  };
}

/**
 * What of a failed send may be logged: nodemailer's message and code. The whole error can hold
 * the connection settings, and SMTP_URL holds a password.
 */
export function mailErrorForLog(error: unknown): { message: string; code?: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? { message: error.message, code } : { message: error.message };
}
