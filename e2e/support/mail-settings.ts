/**
 * E-mail in the e2e run: the local SMTP server (support/local-smtp.mjs) that Tally's SMTP_URL
 * points at, and the loopback HTTP address where the specs read what it received.
 */
import { e2ePort, E2E_PORT } from './ports';
export const SMTP_USER = 'tally';
export const SMTP_PASSWORD = 'e2e-smtp-password';
export const MAIL_FROM = 'Tally <tally@e2e.example>';

export function mailAddresses(base = E2E_PORT) {
  const SMTP_PORT = e2ePort('smtp', base);
  const MAILBOX_PORT = e2ePort('mailbox', base);
  return {
    SMTP_PORT,
    MAILBOX_PORT,
    MAILBOX_ORIGIN: `http://127.0.0.1:${MAILBOX_PORT}`,
    SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${SMTP_PORT}`,
  };
}
export const { MAILBOX_ORIGIN } = mailAddresses();
