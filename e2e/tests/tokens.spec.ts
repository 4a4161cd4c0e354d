import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from '../support/api';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  signInWithStorage,
  screenshotDir,
} from '../support/fixtures';

/**
 * Settings → API tokens and Calendar feed against the real server: a token made on the screen
 * works with a request from the test and stops when revoked; the calendar address serves the
 * todos and a new one retires the old.
 */

async function openSettings(page: Page) {
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Account' })).toBeVisible();
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test.describe('settings: API tokens and calendar feed', () => {
  test.beforeEach(async ({ context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  test('an API token: made, shown once, copied, used by a request, revoked', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'pat');
    await signInWithStorage(page, user, '/settings');
    await openSettings(page);
    const section = page.getByRole('region', { name: 'API tokens' });
    await expect(section.getByText('You have no API tokens.')).toBeVisible();

    const form = section.getByRole('form', { name: 'New API token' });
    await form.getByLabel('Name').fill('E2E script');
    await form.getByLabel('Access').selectOption({ label: 'Read and write' });
    await form.getByLabel('Expires after').selectOption({ label: '30 days' });
    await form.getByRole('button', { name: 'Create token' }).click();

    const shown = section.getByRole('group', { name: 'New token: E2E script' });
    const field = shown.getByLabel('Token');
    await expect(field).toHaveValue(/^tally_pat_[A-Za-z0-9_-]{43}$/);
    await expect(field).toBeFocused();
    const token = await field.inputValue();
    await shown.getByRole('button', { name: 'Copy token' }).click();
    await expect(section.getByRole('status')).toHaveText('Token copied to the clipboard.');
    expect(await clipboard(page)).toBe(token);

    // The test uses it as a script would.
    const script = apiAs(request, { token });
    const made = await script.todos.create({ body: { title: 'Made with a token' } });
    expect(made.status()).toBe(201);
    const listed = await script.todos.list().expectOk();
    expect(listed.map((t) => t.title)).toEqual(['Made with a token']);
    const account = await script.account.get();
    expect(account.status()).toBe(403);

    // Shown once: after a reload only its name, scope and dates remain.
    await page.reload();
    const row = section.getByRole('listitem').filter({ hasText: 'E2E script' });
    await expect(row).toContainText('Read and write');
    await expect(row).not.toContainText('Last used never');
    await expect(page.getByText(token)).toHaveCount(0);
    await expect(page.locator(`input[value="${token}"]`)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'settings, API tokens');

    await row.getByRole('button', { name: 'Revoke token E2E script' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke API token' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(section.getByRole('status')).toHaveText(
      'Token E2E script is revoked: it no longer works.',
    );
    await expect(section.getByText('You have no API tokens.')).toBeVisible();
    const after = await script.todos.list();
    expect(after.status()).toBe(401);
  });

  test('the calendar feed: Settings shows the address, a new one retires the old', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'ics');
    await user.api.todos
      .create({
        body: {
          title: 'Dentist, 2nd floor; bring card',
          dueDate: '2026-12-01',
          dueTime: '09:30',
        },
      })
      .expectOk();
    await signInWithStorage(page, user, '/settings');
    await openSettings(page);
    const section = page.getByRole('region', { name: 'Calendar feed' });
    await section.getByRole('button', { name: 'Create calendar address' }).click();
    const field = section.getByLabel('Calendar address');
    await expect(field).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/api\/calendar\/[\w-]{43}\.ics$/);
    const first = await field.inputValue();
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await expect(section).toContainText(`Times of day are in ${zone}`);

    const feed = await request.get(first);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const body = await feed.text();
    expect(body).toContain('SUMMARY:Dentist\\, 2nd floor\\; bring card\r\n');
    expect(body).toMatch(/DTSTART(;TZID=[^:]+)?:20261201T093000Z?\r\n/);

    await section.getByRole('button', { name: 'Copy address' }).click();
    await expect(section.getByRole('status')).toHaveText('Address copied to the clipboard.');
    expect(await clipboard(page)).toBe(first);

    await section.getByRole('button', { name: 'Make a new address' }).click();
    await page
      .getByRole('dialog', { name: 'Make a new address?' })
      .getByRole('button', { name: 'Make a new address' })
      .click();
    await expect(section.getByRole('status')).toHaveText(
      'A new calendar address is ready. The old one no longer works.',
    );
    await expect(field).not.toHaveValue(first);
    const second = await field.inputValue();
    expect((await request.get(first)).status()).toBe(404);
    expect((await request.get(second)).status()).toBe(200);

    // Still there after a reload; then turned off.
    await page.reload();
    await expect(field).toHaveValue(second);
    await expectNoSeriousA11yViolations(page, 'settings, calendar feed');
    await section.getByRole('button', { name: 'Turn off' }).click();
    await page
      .getByRole('dialog', { name: 'Turn off the calendar feed?' })
      .getByRole('button', { name: 'Turn off' })
      .click();
    await expect(section.getByRole('button', { name: 'Create calendar address' })).toBeVisible();
    expect((await request.get(second)).status()).toBe(404);
  });

  test('screenshots of both sections, light and dark, 390 and 1280 px', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const user = await registerViaApi(request, 'shots');
    for (const [name, scope, expiresInDays] of [
      ['Nightly backup', 'read', 365],
      ['Home Assistant', 'read-write', null],
    ] as const) {
      await user.api.tokens.create({ body: { name, scope, expiresInDays } }).expectOk();
    }
    await user.api.calendar.regenerate().expectOk();
    await signInWithStorage(page, user, '/settings');
    await openSettings(page);
    mkdirSync(screenshotDir, { recursive: true });
    const tokens = page.getByRole('region', { name: 'API tokens' });
    const calendar = page.getByRole('region', { name: 'Calendar feed' });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      // A new token, shown once (each theme's reload hides the previous one).
      await tokens.getByLabel('Name').fill(`Screenshot (${theme})`);
      await tokens.getByRole('button', { name: 'Create token' }).click();
      await expect(tokens.getByRole('group')).toBeVisible();
      await expect(calendar.getByLabel('Calendar address')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `settings, API tokens and calendar (${theme})`);
      // Without the focus ring and selection of the new token's field.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(tokens.getByRole('group')).toBeVisible();
        await expect(calendar.getByLabel('Calendar address')).toBeVisible();
        await tokens.screenshot({
          path: path.join(screenshotDir, `settings-api-tokens-${theme}-${width}.png`),
        });
        await calendar.screenshot({
          path: path.join(screenshotDir, `settings-calendar-feed-${theme}-${width}.png`),
        });
      }
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });
});
