import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  uniqueUsername,
} from '../support/fixtures';
import { GSI_CLIENT_URL, gsiRecord, mintIdToken, routeGoogleClient } from '../support/google';
import { GOOGLE_CLIENT_ID } from '../support/google-settings';

/**
 * Continue with Google against the local identity provider: Tally's server verifies tokens
 * signed by support/local-google-idp.mjs, and the page gets a stand-in for Google's client
 * script that renders a button handing over such a token.
 */

const screenshotDir = path.resolve(import.meta.dirname, '..', 'screenshots');

/** Console messages of the page, as "type: text". */
function collectConsole(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  return messages;
}

/** A Google identity no other test uses: subject, gmail.com address and its local part. */
function newGoogleIdentity() {
  const local = uniqueUsername('g');
  return {
    local,
    claims: {
      sub: `sub-${local}`,
      email: `${local}@gmail.com`,
      email_verified: true,
      name: 'E2E Google User',
    },
  };
}

const googleButton = (page: Page) => page.getByRole('button', { name: 'Continue with Google' });

test.describe('Continue with Google', () => {
  test("Google's button signs a new user in, on /todos with the derived username; again later", async ({
    page,
    request,
  }) => {
    const identity = newGoogleIdentity();
    const credential = await mintIdToken(request, { claims: identity.claims });
    await routeGoogleClient(page, { credential });
    const consoleMessages = collectConsole(page);

    await page.goto('/login');
    await expect(googleButton(page)).toBeEnabled();
    expect(consoleMessages).toContain('log: Google SDK loaded');

    const record = await gsiRecord(page);
    expect(record.initialize).toEqual([{ client_id: GOOGLE_CLIENT_ID }]);
    expect(record.renderButton[0]).toMatchObject({
      type: 'standard',
      theme: 'outline',
      size: 'large',
    });
    expect(record.prompt).toBe(1); // One Tap
    const container = page.locator('[data-gsi-stand-in]').locator('..');
    expect(await container.evaluate((element) => element.getBoundingClientRect().height)).toBe(40);

    await googleButton(page).click();

    await expect(page).toHaveURL(/\/todos$/);
    await expect(page.getByRole('button', { name: `Logout ${identity.local}` })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(identity.local);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    // Signing out and in again finds the same account by its Google subject.
    await page.getByRole('button', { name: `Logout ${identity.local}` }).click();
    await expect(page).toHaveURL(/\/login$/);
    await googleButton(page).click();
    await expect(page.getByRole('button', { name: `Logout ${identity.local}` })).toBeVisible();
  });

  test('One Tap signs in without a click', async ({ page, request }) => {
    const identity = newGoogleIdentity();
    const oneTapCredential = await mintIdToken(request, { claims: identity.claims });
    await routeGoogleClient(page, { credential: 'unused', oneTapCredential });

    await page.goto('/login');

    await expect(page).toHaveURL(/\/todos$/);
    await expect(page.getByRole('button', { name: `Logout ${identity.local}` })).toBeVisible();
  });

  for (const { name, options } of [
    {
      name: 'the wrong audience',
      options: { claims: { aud: 'someone-else.apps.googleusercontent.com' } },
    },
    { name: 'a key the JWKS does not publish', options: { unknownKey: true } },
  ]) {
    test(`a credential with ${name} is refused: the error banner, still on /login`, async ({
      page,
      request,
    }) => {
      const identity = newGoogleIdentity();
      const credential = await mintIdToken(request, {
        ...options,
        claims: { ...identity.claims, ...options.claims },
      });
      await routeGoogleClient(page, { credential });
      const consoleMessages = collectConsole(page);

      await page.goto('/login');
      await googleButton(page).click();

      await expect(page.getByRole('alert')).toContainText(
        'Google sign-in failed: the credential is not valid',
      );
      expect(consoleMessages.some((m) => m.startsWith('error: Google login failed'))).toBe(true);
      await expect(page).toHaveURL(/\/login$/);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await expect(googleButton(page)).toBeEnabled();
    });
  }

  test("Google's script failing to load: the console error, and the password form still works", async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'nogsi');
    await page.route(`${GSI_CLIENT_URL}**`, (route) => route.abort('internetdisconnected'));
    const consoleMessages = collectConsole(page);

    await page.goto('/login');

    await expect(page.getByText('Google sign-in could not be loaded')).toBeVisible();
    expect(consoleMessages).toContain('error: Google SDK failed to load');
    await expect(page.getByRole('button', { name: /Continue with Google/ })).toBeDisabled();
    await expectNoSeriousA11yViolations(page, '/login without Google');

    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/todos$/);
    await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
  });

  test("/login with Google's button: no serious axe violations, screenshots light and dark", async ({
    page,
    request,
  }) => {
    const credential = await mintIdToken(request, { claims: { aud: 'not-tally' } });
    await routeGoogleClient(page, { credential });
    await page.goto('/login');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expect(googleButton(page)).toBeEnabled();
      await expectNoSeriousA11yViolations(page, `/login with Google (${theme})`);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 720 });
        await page.screenshot({
          path: path.join(screenshotDir, `login-google-${theme}-${width}.png`),
          fullPage: true,
        });
      }
      await googleButton(page).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/login with a Google error (${theme})`);
      await page.screenshot({
        path: path.join(screenshotDir, `login-google-error-${theme}.png`),
        fullPage: true,
      });
    }
  });
});
