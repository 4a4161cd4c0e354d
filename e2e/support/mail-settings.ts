/**
 * E-mail in the e2e run: the local SMTP server (support/local-smtp.mjs) that Tally's SMTP_URL
 * points at, and the loopback HTTP address where the specs read what it received.
 */
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 3102);
export const MAILBOX_PORT = Number(process.env.E2E_MAILBOX_PORT ?? 3103);
export const MAILBOX_ORIGIN = `http://127.0.0.1:${MAILBOX_PORT}`;
export const SMTP_USER = 'tally';
export const SMTP_PASSWORD = 'e2e-smtp-password';
export const SMTP_URL = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${SMTP_PORT}`;
export const MAIL_FROM = 'Tally <tally@e2e.example>';
