/**
 * E-mail to task in the e2e run: Dovecot on loopback (support/local-dovecot.mjs) holds the
 * mailbox Tally's INBOX_IMAP_URL names, and a loopback HTTP address delivers mail into it.
 */
export const IMAP_PORT = Number(process.env.E2E_IMAP_PORT ?? 3106);
export const DELIVERY_PORT = Number(process.env.E2E_DELIVERY_PORT ?? 3107);
export const DELIVERY_ORIGIN = `http://127.0.0.1:${DELIVERY_PORT}`;
export const IMAP_USER = 'tally';
export const IMAP_PASSWORD = 'e2e-imap-password';
export const INBOX_IMAP_URL = `imap://${IMAP_USER}:${IMAP_PASSWORD}@127.0.0.1:${IMAP_PORT}/INBOX`;
export const INBOX_ADDRESS = 'todo@tally.example';
