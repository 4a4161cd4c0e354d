import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiAs } from '../support/api';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  signInWithStorage,
  type ApiUser,
  screenshotDir,
} from '../support/fixtures';
import { DELIVERY_ORIGIN } from '../support/inbox-settings';
import { linkIn, waitForMail } from '../support/mailbox';

/**
 * Settings → E-mail to task against the real server and Dovecot on loopback: the address shown
 * is the one mail goes to (a mail to it becomes a todo on the list), a new address retires the
 * old, and the switch lets strangers' mail in.
 */

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const emailOf = (user: ApiUser) => `${user.username}@example.com`;

/** Verifies the user's address with the link of the verification mail. */
async function verify(request: APIRequestContext, user: ApiUser) {
  const mail = await waitForMail(request, emailOf(user), /Confirm your e-mail address/);
  const token = linkIn(mail, '/verify-email').split('#token=')[1];
  const answer = await apiAs(request, null).auth.verifyEmail({ body: { token: token ?? '' } });
  expect(answer.status()).toBe(204);
}

async function deliver(request: APIRequestContext, from: string, to: string, subject: string) {
  const raw =
    `From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: ${new Date().toUTCString()}\r\n` +
    `Message-ID: <${Date.now()}.${Math.random()}@e2e.example>\r\nMIME-Version: 1.0\r\n` +
    'Content-Type: text/plain; charset=utf-8\r\n\r\nSent from the e2e run.\r\n';
  const answer = await request.post(`${DELIVERY_ORIGIN}/deliver`, { data: raw });
  expect(answer.status()).toBe(204);
}

async function openSection(page: Page) {
  const section = page.getByRole('region', { name: 'E-mail to task' });
  await expect(section.getByLabel('Your address')).toHaveValue(
    /^todo\+[a-z2-7]{20}@tally\.example$/,
  );
  return section;
}

test.describe('settings: e-mail to task', () => {
  test.beforeEach(async ({ context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  test('the address takes mail, a new one retires it, the switch lets others in', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const user = await registerViaApi(request, 'inbox');
    await verify(request, user);
    await signInWithStorage(page, user, '/settings/email-to-task');
    const section = await openSection(page);
    await section.getByRole('button', { name: 'Copy address' }).click();
    const address = await clipboard(page);
    await expect(section.getByLabel('Your address')).toHaveValue(address);
    await expect(section.getByText(`Only mail from ${emailOf(user)} makes a todo`)).toBeVisible();

    await deliver(request, 'stranger@elsewhere.example', address, 'From a stranger');
    await deliver(request, emailOf(user), address, 'Call the plumber @home p2');
    await page.goto('/todos');
    await expect(page.getByRole('button', { name: 'Call the plumber', exact: true })).toBeVisible({
      timeout: 10_000,
    });
    await expect(page.getByText('From a stranger')).toBeHidden();

    await page.goto('/settings/email-to-task');
    await openSection(page);
    await section.getByRole('button', { name: 'Make a new address' }).click();
    await page
      .getByRole('dialog', { name: 'Make a new address?' })
      .getByRole('button', { name: 'Make a new address' })
      .click();
    await expect(section.getByRole('status')).toHaveText(
      'A new address is ready. Mail to the old one no longer makes todos.',
    );
    const renewed = await section.getByLabel('Your address').inputValue();
    expect(renewed).not.toBe(address);

    await section.getByRole('switch', { name: 'Only from my address' }).click();
    await expect(section.getByRole('status')).toHaveText(
      'Mail from anyone who has the address makes todos now.',
    );
    await deliver(request, emailOf(user), address, 'To the old address');
    await deliver(request, 'friend@elsewhere.example', renewed, 'From a friend');
    await page.goto('/todos');
    await expect(page.getByRole('button', { name: 'From a friend', exact: true })).toBeVisible({
      timeout: 10_000,
    });
    await expect(page.getByText('To the old address')).toBeHidden();
  });

  test('screenshots, light and dark, phone and desktop', async ({ page, request }) => {
    test.setTimeout(60_000);
    const user = await registerViaApi(request, 'inboxshots');
    await verify(request, user);
    await signInWithStorage(page, user, '/settings/email-to-task');
    const section = await openSection(page);
    mkdirSync(screenshotDir, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await openSection(page);
      await expectNoSeriousA11yViolations(page, `settings, e-mail to task (${theme})`);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(section.getByRole('button', { name: 'Copy address' })).toBeVisible();
        await section.screenshot({
          path: path.join(screenshotDir, `settings-email-to-task-${theme}-${width}.png`),
        });
      }
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });
});
