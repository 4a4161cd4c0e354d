import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { apiAs } from '../support/api';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  signInWithStorage,
  screenshotDir,
} from '../support/fixtures';

/**
 * Two-factor codes in Chromium (docs/decisions/081-two-factor-codes.md): turn them on in
 * Settings (the secret read from the page, the code computed here as an authenticator app
 * would), sign out, sign in with a code, then with a recovery code, and turn them off.
 */

/** The app's code for a moment: the server takes the step before and after too. */
const codeAt = (secret: string, timestamp: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp });

/**
 * Screenshots of a screen that a reload would lose (its state is in the page): light and dark.
 * `shown` is checked visible before each shot; `part` is saved on its own as well.
 */
async function screenshotInPlace(page: Page, name: string, shown: Locator, part?: Locator) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(
      (dark) => document.documentElement.classList.toggle('dark', dark),
      theme === 'dark',
    );
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(shown).toBeVisible();
      await page.screenshot({
        path: path.join(screenshotDir, `${name}-${theme}-${width}.png`),
        fullPage: true,
      });
      // The part that matters, at full size (a whole Settings page is too tall to look at).
      await part?.screenshot({
        path: path.join(screenshotDir, `${name}-${theme}-${width}-part.png`),
      });
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Signs in on the login page a logout has just led to. */
async function signInWithPassword(page: Page, username: string, password: string) {
  // Waits for the logout to finish rather than load /login over it: a page loaded while the
  // logout was still under way was still signed in and went on to /todos.
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

test('turn on two-factor codes, sign in with a code and with a recovery code, turn them off', async ({
  page,
  request,
}) => {
  // Three sign-ins and screenshots of two screens in two themes at two widths: 24 s on a busy
  // machine, too close to the default 30 s.
  test.setTimeout(60_000);
  const user = await registerViaApi(request, 'totp');
  // Another device signed in: turning the codes on offers to sign it out.
  const otherLogin = await apiAs(request, null)
    .auth.login({ body: { username: user.username, password: user.password } })
    .expectOk();
  if (!('accessToken' in otherLogin)) throw new Error('No second factor is on yet');
  const otherDevice = { token: otherLogin.accessToken };
  await signInWithStorage(page, user, '/settings');

  // Settings → Two-factor: the QR code and the secret, confirmed with the app's code.
  const section = page.getByRole('region', { name: 'Two-factor' });
  await section.getByRole('button', { name: 'Set up two-factor codes' }).click();
  await expect(
    section.getByRole('img', { name: 'QR code for your authenticator app' }),
  ).toBeVisible();
  const secret = (await section.getByLabel('Secret key').inputValue()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await screenshotInPlace(
    page,
    'two-factor-setup',
    section.getByRole('img', { name: 'QR code for your authenticator app' }),
    section,
  );
  const codeField = section.getByLabel('2. Code from the app');
  await codeField.fill('000000' === codeAt(secret, Date.now()) ? '111111' : '000000');
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(codeField).toHaveAccessibleDescription(/^The code is not correct/);
  await codeField.fill(codeAt(secret, Date.now()));
  await section
    .getByRole('checkbox', { name: 'Also sign out every other device signed in to your account' })
    .check();
  await section.getByRole('button', { name: 'Turn on' }).click();

  // The recovery codes, shown once.
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allInnerTexts();
  await screenshotInPlace(page, 'two-factor-recovery-codes', codes.first(), section);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Two-factor codes are on. Every other device was signed out.',
  );
  const ended = await apiAs(request, otherDevice).todos.list();
  expect(ended.status()).toBe(401);
  await expect(section).toContainText('10 recovery codes are left.');
  await screenshotInPlace(
    page,
    'two-factor-on',
    section.getByText('10 recovery codes are left.'),
    section,
  );
  await expectNoSeriousA11yViolations(page, 'Settings with two-factor codes on');

  // Sign out; the password alone now leads to the second step.
  await page.getByRole('button', { name: `Logout ${user.username}` }).click();
  await signInWithPassword(page, user.username, user.password);
  await expect(page.getByRole('heading', { name: 'Two-factor code' })).toBeVisible();
  const code = page.getByLabel('Code', { exact: true });
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toBeFocused();
  await screenshotInPlace(page, 'two-factor-login', code);
  await expectNoSeriousA11yViolations(page, 'the second step of the login');
  await code.fill('000000' === codeAt(secret, Date.now() + 30_000) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(code).toHaveAccessibleDescription('The code is not correct');
  // The code that turned them on was spent: the app's next one (its neighbour step) signs in.
  await code.fill(codeAt(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
  await expect(page).toHaveURL(/\/todos$/);

  // A recovery code instead of the app's.
  await page.getByRole('button', { name: `Logout ${user.username}` }).click();
  await signInWithPassword(page, user.username, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  const recovery = page.getByLabel('Recovery code');
  await recovery.fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();

  // The same recovery code does not work twice.
  await page.getByRole('button', { name: `Logout ${user.username}` }).click();
  await signInWithPassword(page, user.username, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await recovery.fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(recovery).toHaveAccessibleDescription('The code is not correct');
  await recovery.fill(recoveryCodes[1] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();

  // Turn them off with the password; the next sign-in asks for it alone.
  await page.goto('/settings');
  await expect(section).toContainText('8 recovery codes are left.');
  await section.getByRole('button', { name: 'Use your password instead' }).click();
  await section.getByLabel('Password').fill('not the password');
  await section.getByRole('button', { name: 'Turn off two-factor codes' }).click();
  await expect(section.getByLabel('Password')).toHaveAccessibleDescription(
    'The password is not correct.',
  );
  await section.getByLabel('Password').fill(user.password);
  await section.getByRole('button', { name: 'Turn off two-factor codes' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Two-factor codes are off: signing in asks for the password only.',
  );
  await page.getByRole('button', { name: `Logout ${user.username}` }).click();
  await signInWithPassword(page, user.username, user.password);
  await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
});

test('a redirect-based sign-in opens the second step from /login#mfa=<token>', async ({
  page,
  request,
}) => {
  const user = await registerViaApi(request, 'totpurl');
  const { secret } = await user.api.twoFactor.setup().expectOk();
  const enabled = await user.api.twoFactor.enable({ body: { code: codeAt(secret, Date.now()) } });
  expect(enabled.status()).toBe(201);
  // The first step in the page's own context, so the browser holds the mfa cookie (as after a
  // provider's redirect); then the page is opened with the token in its fragment.
  const first = await apiAs(page.request, null)
    .auth.login({ body: { username: user.username, password: user.password } })
    .expectOk();
  if (!('mfaToken' in first)) throw new Error('The sign-in did not ask for a second factor');
  const { mfaToken } = first;
  await page.goto(`/login#mfa=${mfaToken}`);
  await expect(page.getByRole('heading', { name: 'Two-factor code' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
});
