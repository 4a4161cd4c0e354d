import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, setTheme, signInWithStorage } from '../support/fixtures';

/**
 * Settings → Notifications against the real server: a channel is added and its test says what
 * came back; quiet hours and the daily digest's time are saved in the account's zone.
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
