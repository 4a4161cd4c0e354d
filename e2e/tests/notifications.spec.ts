import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs } from '../support/api';
import { registerViaApi, setTheme, signInWithStorage } from '../support/fixtures';
import { linkIn, mailsTo, waitForMail, type ReceivedMail } from '../support/mailbox';
import { RECEIVERS_CONTROL_ORIGIN, RECEIVERS_ORIGIN } from '../support/notify-settings';

/**
 * Settings → Notifications against the real server: a channel is added and its test says what
 * came back; quiet hours and the daily digest's time are saved in the account's zone. Channels
 * reach the stand-ins for ntfy, Gotify, Pushover and webhooks (support/local-notify-receivers.mjs)
 * and e-mail the local SMTP server.
 */

const shots = process.env.E2E_SHOTS_DIR ?? path.join('/tmp', 'shots-notify');

const section = (page: Page) =>
  page.getByRole('heading', { name: 'Notifications', level: 2 }).locator('xpath=ancestor::section');

test('a channel with its test result, quiet hours and the digest time', async ({
  page,
  request,
}) => {
  const user = await registerViaApi(request, 'notify');
  await signInWithStorage(page, user, '/settings/notifications');
  const notifications = section(page);
  await expect(notifications.getByText('No channels yet.')).toBeVisible();

  // A webhook on a name that never resolves: the test reports why nothing answered.
  const form = notifications.getByRole('form', { name: 'Add a channel' });
  await form.getByLabel('Kind').selectOption('webhook');
  await form.getByLabel('Name').fill('Receiver');
  await form.getByLabel('URL').fill('https://receiver.invalid/hook');
  await form.getByRole('button', { name: 'Add channel' }).click();
  await expect(notifications.getByRole('status')).toHaveText('Webhook channel "Receiver" added.');
  await notifications.getByRole('button', { name: 'Send a test to Receiver' }).click();
  await expect(notifications.getByText(/^Not delivered/)).toBeVisible();

  const schedule = notifications.getByRole('form', { name: 'Quiet hours and daily digest' });
  await schedule.getByLabel('Quiet from').fill('22:00');
  await schedule.getByLabel('Quiet until').fill('07:00');
  await schedule.getByLabel('Daily digest e-mail at').fill('07:30');
  await schedule.getByRole('button', { name: 'Save' }).click();
  await expect(notifications.getByRole('status')).toHaveText('Quiet hours and digest saved.');
  await page.reload();
  await expect(section(page).getByLabel('Quiet from')).toHaveValue('22:00');
  await expect(section(page).getByLabel('Daily digest e-mail at')).toHaveValue('07:30');

  for (const [name, size] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await section(page).getByLabel('Quiet from').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(shots, `notifications-${name}-${theme}.png`) });
    }
  }
});

interface Received {
  received: { service: string; path: string; fields: Record<string, unknown> }[];
  refused: string[];
}

async function receivedByStandIns(request: APIRequestContext): Promise<Received> {
  const response = await request.get(`${RECEIVERS_CONTROL_ORIGIN}/received`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as Received;
}

/** Verifies the account's address with the link sent at registration, as its owner would. */
async function verifyAddress(request: APIRequestContext, address: string) {
  const mail = await waitForMail(request, address, /Confirm your e-mail address/);
  const token = linkIn(mail, '/verify-email').split('#token=')[1];
  await apiAs(request, null)
    .auth.verifyEmail({ body: { token: token ?? '' } })
    .expectOk();
}

/** The date and the time of day now in `zone`, as Tally reads them there. */
function nowIn(zone: string): { date: string; time: string } {
  const now = new Date();
  return {
    date: new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(now),
    time: new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(now),
  };
}

test('every kind of channel answers its test, and the daily digest arrives by e-mail', async ({
  page,
  request,
}) => {
  // The digest round runs once a minute on the server's own clock.
  test.setTimeout(150_000);
  const user = await registerViaApi(request, 'channels');
  const address = `${user.username}@example.com`;
  await verifyAddress(request, address);
  await signInWithStorage(page, user, '/settings/notifications');
  const notifications = section(page);
  const form = notifications.getByRole('form', { name: 'Add a channel' });
  const hook = `e2e-${user.username.toLowerCase().replace(/[^a-z0-9]/g, '')}`;

  const channels: { kind: string; name: string; fields: Record<string, string> }[] = [
    { kind: 'email', name: 'Mail', fields: {} },
    {
      kind: 'ntfy',
      name: 'Phone',
      fields: { 'Server URL': `${RECEIVERS_ORIGIN}/ntfy`, Topic: 'tally-e2e' },
    },
    {
      kind: 'gotify',
      name: 'Desk',
      fields: { 'Server URL': `${RECEIVERS_ORIGIN}/gotify`, 'App token': 'AbCdEfGhIjKlMnO' },
    },
    {
      kind: 'pushover',
      name: 'Watch',
      fields: {
        'User key': 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
        'API token': 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
      },
    },
    { kind: 'webhook', name: 'Hook', fields: { URL: `${RECEIVERS_ORIGIN}/hooks/${hook}` } },
  ];
  const mailsBefore = (await mailsTo(request, address)).length;
  for (const channel of channels) {
    await form.getByLabel('Kind').selectOption(channel.kind);
    await form.getByLabel('Name').fill(channel.name);
    for (const [label, value] of Object.entries(channel.fields)) {
      await form.getByLabel(label, { exact: true }).fill(value);
    }
    await form.getByRole('button', { name: 'Add channel' }).click();
    await expect(notifications.getByRole('status')).toContainText(`"${channel.name}" added.`);
    if (channel.kind === 'webhook') {
      // Shown once: the receiver verifies each request's signature with it.
      const secret = await notifications.locator('code').innerText();
      const given = await request.put(`${RECEIVERS_CONTROL_ORIGIN}/secrets/${hook}`, {
        data: secret,
      });
      expect(given.ok()).toBe(true);
    }
    await notifications.getByRole('button', { name: `Send a test to ${channel.name}` }).click();
    await expect(
      notifications
        .getByRole('listitem')
        .filter({ hasText: channel.name })
        .getByText(/^Delivered/),
    ).toBeVisible();
  }
  const { received, refused } = await receivedByStandIns(request);
  expect(refused).toEqual([]);
  expect(received.map((message) => message.service)).toEqual(
    expect.arrayContaining(['ntfy', 'gotify', 'pushover', 'webhook']),
  );
  expect((await mailsTo(request, address)).length).toBeGreaterThan(mailsBefore);

  // The digest: what is overdue and due today, at the time set, to the verified address.
  const zone = (await notifications.getByText(/^Times are in /).innerText()).match(
    /^Times are in (\S+?)\./,
  )?.[1];
  if (!zone) throw new Error('no zone in the hint');
  const now = nowIn(zone);
  const yesterday = new Date(`${now.date}T12:00:00Z`);
  yesterday.setUTCDate(yesterday.getUTCDate() - 1);
  await user.api.todos
    .create({
      body: {
        title: 'Return the library books',
        dueDate: yesterday.toISOString().slice(0, 10),
      },
    })
    .expectOk();
  await user.api.todos
    .create({ body: { title: 'Call the plumber', dueDate: now.date } })
    .expectOk();
  const schedule = notifications.getByRole('form', { name: 'Quiet hours and daily digest' });
  await schedule.getByLabel('Daily digest e-mail at').fill(now.time);
  await schedule.getByRole('button', { name: 'Save' }).click();
  await expect(notifications.getByRole('status')).toHaveText('Quiet hours and digest saved.');

  let digest: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        digest = (await mailsTo(request, address)).find((mail) =>
          mail.subject.startsWith('Tally for '),
        );
        return digest !== undefined;
      },
      { message: 'the daily digest', timeout: 90_000, intervals: [2_000] },
    )
    .toBe(true);
  const mail = digest as ReceivedMail;
  expect(mail.subject).toBe(`Tally for ${now.date}: 1 overdue, 1 due today`);
  expect(mail.text).toContain(
    `Overdue:\n- Return the library books (due ${yesterday.toISOString().slice(0, 10)})`,
  );
  expect(mail.text).toContain('Due today:\n- Call the plumber');
  expect(mail.text).toContain('Yesterday you completed 0 todos.');
  expect(mail.text).toMatch(/Stop these e-mails: http\S+/);

  // As a mail client shows it: on a blank page, for the app's Content-Security-Policy (no inline
  // styles) not to apply to the mail's.
  await page.goto('about:blank');
  await page.setContent(mail.html);
  await expect(page.getByRole('heading', { name: 'Overdue' })).toHaveCSS('font-size', '16px');
  await expect(page.getByRole('heading', { name: 'Overdue' })).toBeVisible();
  await expect(page.getByRole('listitem')).toHaveText([
    `Return the library books (due ${yesterday.toISOString().slice(0, 10)})`,
    'Call the plumber',
  ]);
  for (const [name, size] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(shots, `digest-mail-${name}.png`) });
  }
});
