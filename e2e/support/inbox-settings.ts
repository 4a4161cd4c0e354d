/**
 * E-mail to task in the e2e run: Dovecot on loopback (support/local-dovecot.mjs) holds the
 * mailbox Tally's INBOX_IMAP_URL names, and a loopback HTTP address delivers mail into it.
 */
import { e2ePort, E2E_PORT } from './ports';
export const IMAP_USER = 'tally';
export const IMAP_PASSWORD = 'e2e-imap-password';
export const INBOX_ADDRESS = 'todo@tally.example';

export function inboxAddresses(base = E2E_PORT) {
  const IMAP_PORT = e2ePort('imap', base);
  const DELIVERY_PORT = e2ePort('delivery', base);
  return {
    IMAP_PORT,
    DELIVERY_PORT,
    DELIVERY_ORIGIN: `http://127.0.0.1:${DELIVERY_PORT}`,
    INBOX_IMAP_URL: `imap://${IMAP_USER}:${IMAP_PASSWORD}@127.0.0.1:${IMAP_PORT}/INBOX`,
  };
}
export const { DELIVERY_ORIGIN } = inboxAddresses();
