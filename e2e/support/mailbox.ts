import { expect, type APIRequestContext } from '@playwright/test';
import { MAILBOX_ORIGIN } from './mail-settings';

/** A mail Tally sent, as the local SMTP server (support/local-smtp.mjs) received it. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

/** Every mail received for `to` so far, oldest first. */
export async function mailsTo(request: APIRequestContext, to: string): Promise<ReceivedMail[]> {
  const response = await request.get(`${MAILBOX_ORIGIN}/messages`, { params: { to } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as ReceivedMail[];
}

/**
 * Waits for a mail to `to` whose subject matches, beyond the first `skip` mails to that address
 * (those a test had already seen), and answers it.
 */
export async function waitForMail(
  request: APIRequestContext,
  to: string,
  subject: RegExp,
  skip = 0,
): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(request, to)).slice(skip).find((mail) => subject.test(mail.subject));
        return found !== undefined;
      },
      { message: `a mail to ${to} with the subject ${subject}`, timeout: 10_000 },
    )
    .toBe(true);
  return found as ReceivedMail;
}

/** The link to `path` (e.g. /reset-password) in a mail's text, as a path with its fragment. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s/]+(${path}#token=[A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[1];
}
