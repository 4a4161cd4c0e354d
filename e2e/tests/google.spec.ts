import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiAs } from '../support/api';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  setTheme,
  uniqueUsername,
  screenshotDir,
} from '../support/fixtures';
import { GSI_CLIENT_URL, gsiRecord, routeGoogleClient } from '../support/google';
import { GOOGLE_CLIENT_ID } from '../support/google-settings';

/**
 * Continue with Google against the local identity provider: Tally's server verifies tokens
 * signed by support/local-google-idp.mjs, and the page gets a stand-in for Google's client
 * script that renders a button handing over such a token.
 */

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

/** The server's answer to an ID token without this browser's nonce. */
const NONCE_REFUSAL =
  'Google sign-in failed: the credential was not requested by this browser - please try again';

const googleButton = (page: Page) => page.getByRole('button', { name: 'Continue with Google' });

test.describe('Continue with Google', () => {
  test("Google's button signs a new user in, on /todos with the derived username; again later", async ({
    page,
  }) => {
    const identity = newGoogleIdentity();
    await routeGoogleClient(page, { credential: { claims: identity.claims } });
    const consoleMessages = collectConsole(page);

    await page.goto('/login');
    await expect(googleButton(page)).toBeEnabled();
    expect(consoleMessages).toContain('log: Google SDK loaded');

    const record = await gsiRecord(page);
    // Google is set up once, with the nonce Tally's server handed this browser.
    expect(record.initialize).toEqual([
      { client_id: GOOGLE_CLIENT_ID, nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    ]);
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

  test('One Tap signs in without a click', async ({ page }) => {
    const identity = newGoogleIdentity();
    await routeGoogleClient(page, {
      credential: { claims: { aud: 'unused' } },
      oneTapCredential: { claims: identity.claims },
    });

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
    }) => {
      const identity = newGoogleIdentity();
      await routeGoogleClient(page, {
        credential: { ...options, claims: { ...identity.claims, ...options.claims } },
      });
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

  for (const { name, nonce } of [
    { name: 'no nonce', nonce: undefined },
    { name: "another browser's nonce", nonce: 'AnotherBrowsersNonce0000000000000000000000a' },
  ]) {
    test(`a credential with ${name} is refused, and the next try gets a fresh nonce`, async ({
      page,
    }) => {
      const identity = newGoogleIdentity();
      await routeGoogleClient(page, { credential: { claims: { ...identity.claims, nonce } } });
      const consoleMessages = collectConsole(page);

      await page.goto('/login');
      await googleButton(page).click();

      await expect(page.getByRole('alert')).toContainText(NONCE_REFUSAL);
      expect(consoleMessages.some((m) => m.startsWith('error: Google login failed'))).toBe(true);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      // The attempt spent the nonce cookie; Google is set up again with a new nonce.
      await expect.poll(async () => (await gsiRecord(page)).initialize.length).toBe(2);
      const [first, second] = (await gsiRecord(page)).initialize;
      expect(second?.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second?.nonce).not.toBe(first?.nonce);
      await expect(googleButton(page)).toBeEnabled();
    });
  }

  test('the credential that signed this page in cannot be replayed, from elsewhere or here', async ({
    page,
    request,
  }) => {
    const identity = newGoogleIdentity();
    const standIn = await routeGoogleClient(page, { credential: { claims: identity.claims } });
    await page.goto('/login');
    await googleButton(page).click();
    await expect(page).toHaveURL(/\/todos$/);
    const [captured] = standIn.issued;
    expect(captured).toBeTruthy();

    // Another browser (no nonce cookie) ...
    const elsewhere = await apiAs(request, null).auth.google({ body: { token: captured ?? '' } });
    expect(elsewhere.status()).toBe(401);
    expect(await elsewhere.json()).toEqual({ error: NONCE_REFUSAL });
    // ... and this one, whose cookie the sign-in spent.
    const here = await page.evaluate(
      async (token) =>
        (
          await fetch('/api/auth/google', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token }),
          })
        ).status,
      captured,
    );
    expect(here).toBe(401);
  });

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
  }) => {
    await routeGoogleClient(page, { credential: { claims: { aud: 'not-tally' } } });
    await page.goto('/login');
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expect(googleButton(page)).toBeEnabled();
      await expectNoSeriousA11yViolations(page, `/login with Google (${theme})`);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 720 });
        await expect(googleButton(page)).toBeEnabled();
        await page.screenshot({
          path: path.join(screenshotDir, `login-google-${theme}-${width}.png`),
          fullPage: true,
        });
      }
      await googleButton(page).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await expectNoSeriousA11yViolations(page, `/login with a Google error (${theme})`);
      await expect(page.getByRole('alert')).toBeVisible();
      await page.screenshot({
        path: path.join(screenshotDir, `login-google-error-${theme}.png`),
        fullPage: true,
      });
    }
  });
});
