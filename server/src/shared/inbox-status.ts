/**
 * What the inbox fetcher of this process is doing, for the admin page's health: written by the
 * fetcher (server/src/inbox/fetcher.ts), read by the admin routes. Only this process's view: the lease in
 * job_leases tells whether some other process holds the fetcher.
 */
/** The job_leases row of the one fetcher among every process on the database. */
export const INBOX_LEASE = 'inbox-fetcher';

export interface InboxStatus {
  /** The lease holder id of this process's fetcher; null when this process runs none. */
  holder: string | null;
  connected: boolean;
  lastMailAt: number | null;
  lastError: { at: number; message: string } | null;
}

export const createInboxStatus = (): InboxStatus => ({
  holder: null,
  connected: false,
  lastMailAt: null,
  lastError: null,
});

/** The login and password never reach the page, even when a server repeats them in an error. */
export function errorText(error: unknown, secrets: string[]): string {
  let text = error instanceof Error ? error.message : String(error);
  const response = (error as { responseText?: unknown } | null)?.responseText;
  if (typeof response === 'string' && response && !text.includes(response)) {
    text = `${text}: ${response}`;
  }
  for (const secret of secrets) {
    if (secret) text = text.split(secret).join('***');
  }
  return text;
}
