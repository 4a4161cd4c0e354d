import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotScreen,
  signInWithStorage,
  uniqueUsername,
} from '../support/fixtures';
import { OIDC_ISSUER, OIDC_NAME } from '../support/oidc-settings';

/**
 * Single sign-on through a real OpenID provider on loopback (support/local-oidc-provider.mjs):
 * Chromium leaves Tally for the provider's login page, signs in there, and comes back through
 * Tally's callback, as with Keycloak or Authentik.
 */

const oidcButton = (page: Page) => page.getByRole('button', { name: `Continue with ${OIDC_NAME}` });

/** The provider's login page: who signs in, with which address. */
async function signInAtProvider(page: Page, sub: string, email: string) {
  await expect(page).toHaveURL(new RegExp(`^${OIDC_ISSUER}/interaction/`));
  await page.getByLabel('Username').fill(sub);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe(`Continue with ${OIDC_NAME}`, () => {
  test('signs a new person in, on /todos, and signs out of the provider too', async ({ page }) => {
    const local = uniqueUsername('sso');
    await page.goto('/login');
    await expectNoSeriousA11yViolations(page, '/login with single sign-on');
    await oidcButton(page).click();
    await signInAtProvider(page, `sub-${local}`, `${local}@idp.example`);

    await expect(page).toHaveURL(/\/todos$/);
    const logout = page.getByRole('button', { name: `Logout ${local}` });
    await expect(logout).toBeVisible();

    // RP-initiated logout: the provider asks, then sends the browser back to /login.
    await logout.click();
    await expect(page).toHaveURL(new RegExp(`^${OIDC_ISSUER}/session/end`));
    await page.getByRole('button', { name: /yes/i }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // The provider's session is gone: it asks again, and finds the same account by subject.
    await oidcButton(page).click();
    await signInAtProvider(page, `sub-${local}`, `changed-${local}@idp.example`);
    await expect(page.getByRole('button', { name: `Logout ${local}` })).toBeVisible();
  });

  test('never enters an existing account by its address: it says how to link instead', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'pw');
    await page.goto('/login');
    await oidcButton(page).click();
    await signInAtProvider(page, `sub-${user.username}`, `${user.username}@example.com`);

    await expect(page).toHaveURL(/\/login\?oidc_error=email_exists$/);
    await expect(page.getByRole('alert')).toContainText(
      `An account with this e-mail address already exists - sign in with your password and link ${OIDC_NAME} in Settings`,
    );
    await page.getByRole('button', { name: 'Dismiss message' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('is linked and unlinked in Settings, then signs in to that account', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'link');
    const sub = `sub-${user.username}`;
    await signInWithStorage(page, user, '/settings');
    const section = page.getByRole('region', { name: OIDC_NAME });
    await expect(section).toContainText('Not linked');
    await section.getByRole('button', { name: `Link ${OIDC_NAME}` }).click();
    await signInAtProvider(page, sub, `${user.username}@example.com`);

    await expect(page).toHaveURL(/\/settings\?oidc=linked$/);
    await expect(section).toContainText(
      `${OIDC_NAME} is linked: you can sign in with ${OIDC_NAME} too.`,
    );
    await screenshotScreen(page, 'settings-oidc-linked', () =>
      expect(section.getByRole('button', { name: `Unlink ${OIDC_NAME}` })).toBeVisible(),
    );

    // Another browser: the provider signs in to the linked account.
    const other = await page.context().browser()?.newContext();
    if (!other) throw new Error('no browser');
    const second = await other.newPage();
    await second.goto('/login');
    await oidcButton(second).click();
    await signInAtProvider(second, sub, 'anything@idp.example');
    await expect(second.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
    await other.close();

    await section.getByRole('button', { name: `Unlink ${OIDC_NAME}` }).click();
    await expect(section).toContainText(`${OIDC_NAME} is unlinked.`);
    await expect(section.getByRole('button', { name: `Link ${OIDC_NAME}` })).toBeVisible();
  });

  test('an account that only the provider signs in deletes itself right after signing in there', async ({
    page,
  }) => {
    const local = uniqueUsername('ssodel');
    await page.goto('/login');
    await oidcButton(page).click();
    await signInAtProvider(page, `sub-${local}`, `${local}@idp.example`);
    await expect(page.getByRole('button', { name: `Logout ${local}` })).toBeVisible();

    await page.goto('/settings');
    const form = page.getByRole('form', { name: 'Delete account' });
    await form.getByLabel('Username').fill(local);
    await form.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Your account is deleted')).toBeVisible();
  });

  test('/login with the provider’s button: screenshots light and dark', async ({ page }) => {
    await page.goto('/login');
    await screenshotScreen(page, 'login-oidc', () => expect(oidcButton(page)).toBeVisible());
  });
});
