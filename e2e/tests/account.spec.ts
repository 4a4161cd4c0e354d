import path from 'node:path';
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotScreen,
  setTheme,
  uniqueUsername,
  type ApiUser,
  screenshotDir,
} from '../support/fixtures';
import { linkIn, mailsTo, waitForMail } from '../support/mailbox';

/**
 * Settings and the e-mailed links against the real server: every mail goes through a real SMTP
 * server on loopback (support/local-smtp.mjs), and the specs follow the links it received.
 */

const FIREFOX_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const RESET_SUBJECT = /Reset your Tally password/;
const VERIFY_SUBJECT = /Confirm your e-mail address/;

const emailOf = (user: ApiUser) => `${user.username}@example.com`;

/** Signs in through the login form, so the browser has a session (and refresh cookie) of its own. */
async function logIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: `Logout ${username}` })).toBeVisible();
}

/** A second browser (its own cookies and storage) signed in as the user. */
async function otherDevice(browser: Browser, user: ApiUser) {
  const context = await browser.newContext({ userAgent: FIREFOX_ON_WINDOWS });
  const page = await context.newPage();
  await logIn(page, user.username, user.password);
  return { context, page };
}

async function openSettings(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Account' })).toBeVisible();
}

/** The device's session has ended: its next call is refused and the page goes to /login. */
async function expectSignedOut(page: Page) {
  await page.goto('/todos');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
}

test.describe('settings', () => {
  test('change password: the other device is signed out, the new password signs in', async ({
    page,
    browser,
    request,
  }) => {
    const user = await registerViaApi(request, 'pw');
    const other = await otherDevice(browser, user);
    await logIn(page, user.username, user.password);
    await openSettings(page);

    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(user.password);
    await form.getByLabel('New password').fill('a fresh password 456');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('region', { name: 'Password' }).getByRole('status')).toHaveText(
      'Your password is changed. Every other device was signed out.',
    );
    await expect(form.getByLabel('Current password')).toHaveValue('');

    // This device stays signed in; the other one and the API session end at once.
    await page.reload();
    await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
    await expectSignedOut(other.page);
    const old = await user.api.todos.list();
    expect(old.status()).toBe(401);
    await other.context.close();

    // A wrong current password is refused with the server's sentence.
    await form.getByLabel('Current password').fill('not the password');
    await form.getByLabel('New password').fill('yet another password');
    await form.getByRole('button', { name: 'Change password' }).click();
    // Beside the field, in words (docs/product.md, Errors).
    await expect(form.getByLabel('Current password')).toHaveAccessibleDescription(
      'The current password is not correct.',
    );

    await page.getByRole('button', { name: `Logout ${user.username}` }).click();
    await expect(page).toHaveURL(/\/login$/);
    await logIn(page, user.username, 'a fresh password 456');
  });

  test('change e-mail: the new address is unverified until its link is followed', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'mail');
    const newAddress = `${user.username}@new.example.com`;
    await logIn(page, user.username, user.password);
    await openSettings(page);
    const account = page.getByRole('region', { name: 'Account' });
    await expect(account.getByText(emailOf(user), { exact: true })).toBeVisible();

    const form = page.getByRole('form', { name: 'Change e-mail' });
    await form.getByLabel('New e-mail address').fill(newAddress);
    await form.getByLabel('Current password').fill(user.password);
    await form.getByRole('button', { name: 'Change e-mail' }).click();

    await expect(account.getByRole('status')).toHaveText(
      `Your e-mail address is now ${newAddress}. We sent a link to it to verify it.`,
    );
    await expect(account.getByText(newAddress, { exact: true })).toBeVisible();
    await expect(account.getByText('Not verified', { exact: true })).toBeVisible();
    await expect(account.getByRole('button', { name: 'Resend verification link' })).toBeVisible();

    const mail = await waitForMail(request, newAddress, VERIFY_SUBJECT);
    await page.goto(linkIn(mail, '/verify-email'));
    await expect(page.getByText(`Verify the e-mail address ${newAddress}`)).toBeVisible();
    await page.getByRole('button', { name: 'Verify e-mail address' }).click();
    await expect(page.getByRole('status')).toHaveText('Your e-mail address is verified');
    await page.getByRole('link', { name: 'Go to your settings' }).click();
    await expect(account.getByText('Verified', { exact: true })).toBeVisible();
    await expect(account.getByRole('button', { name: 'Resend verification link' })).toBeHidden();
  });

  test('sessions: this device is marked, another one is ended', async ({
    page,
    browser,
    request,
  }) => {
    const user = await registerViaApi(request, 'sessions');
    const other = await otherDevice(browser, user);
    await logIn(page, user.username, user.password);
    await openSettings(page);

    const list = page.getByRole('list', { name: 'Signed-in devices' });
    // Registration (the API), the other device and this one.
    await expect(list.getByRole('listitem')).toHaveCount(3);
    const current = list.getByRole('listitem').filter({ hasText: 'This device' });
    await expect(current).toHaveCount(1);
    await expect(current).toContainText(/Signed in .+Last used .+/);
    await expect(current.getByRole('button')).toHaveCount(0);
    const firefox = list.getByRole('listitem').filter({ hasText: 'Firefox on Windows' });
    await expect(firefox).toHaveCount(1);

    await firefox.getByRole('button', { name: /^End session: Firefox on Windows/ }).click();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(page.getByRole('region', { name: 'Sessions' }).getByRole('status')).toHaveText(
      'The session of Firefox on Windows has ended.',
    );
    await expectSignedOut(other.page);
    await other.context.close();

    await page.getByRole('button', { name: 'End all other sessions' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('No other device is signed in.')).toBeVisible();
    const apiSession = await user.api.todos.list();
    expect(apiSession.status()).toBe(401);
    await page.reload();
    await expect(list.getByRole('listitem')).toHaveCount(1);
  });

  test('export my data downloads a JSON file', async ({ page, request }) => {
    const user = await registerViaApi(request, 'export');
    await user.api.todos.create({ body: { title: 'Exported todo' } }).expectOk();
    await logIn(page, user.username, user.password);
    await openSettings(page);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export my data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^tally-export-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
      version: number;
      account: { username: string };
      todos: { title: string }[];
    };
    expect(file.version).toBe(4);
    expect(file.account.username).toBe(user.username);
    expect(file.todos.map((todo) => todo.title)).toEqual(['Exported todo']);
    await expect(page.getByRole('region', { name: 'Your data' }).getByRole('status')).toHaveText(
      `Your data is saved as ${download.suggestedFilename()}.`,
    );
  });

  test('delete account: signed out on /login, and the username can register again', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'delete');
    await logIn(page, user.username, user.password);
    await openSettings(page);

    const form = page.getByRole('form', { name: 'Delete account' });
    const remove = form.getByRole('button', { name: 'Delete my account' });
    await expect(remove).toBeDisabled();
    await form.getByLabel('Username').fill(user.username);
    await form.getByLabel('Password').fill('not the password');
    await remove.click();
    // Beside the field, in words (docs/product.md, Errors).
    await expect(form.getByLabel('Password')).toHaveAccessibleDescription(
      'The password is not correct.',
    );

    await form.getByLabel('Password').fill(user.password);
    await remove.click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Your account is deleted')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const gone = await user.api.todos.list();
    expect(gone.status()).toBe(401);

    await page.getByRole('link', { name: 'Register' }).click();
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Email').fill(emailOf(user));
    await page.getByLabel('Password').fill('a new start 789');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/todos$/);
    await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
  });
});

test.describe('e-mailed links', () => {
  test('forgot password → e-mail → reset password → log in with the new one', async ({
    page,
    request,
  }) => {
    const user = await registerViaApi(request, 'reset');
    const address = emailOf(user);
    const before = (await mailsTo(request, address)).length;

    // Keyboard only, from the login page.
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page).toHaveTitle('Forgot password · Tally');
    await page.getByLabel('Email').focus();
    await page.keyboard.type(address);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status')).toHaveText(
      'If an account uses that address, we sent a link to reset its password.',
    );

    const mail = await waitForMail(request, address, RESET_SUBJECT, before);
    const link = linkIn(mail, '/reset-password');
    await page.goto(link);
    await expect(page).toHaveTitle('Reset password · Tally');
    await page.getByLabel('New password', { exact: true }).fill('maple harbour 321');
    await page.getByLabel('Repeat new password').fill('maple harbour 321');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'Your password is set. Every device signed in to your account was signed out, every API token revoked and the calendar feed turned off (make a new feed URL in Settings if you want it). A linked Google or single sign-on account stays linked only if your address was verified before: Settings shows what is linked.',
    );

    // The reset ended every session.
    const old = await user.api.todos.list();
    expect(old.status()).toBe(401);

    // The link works once: a second use shows the server's sentence.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another password 654');
    await page.getByLabel('Repeat new password').fill('another password 654');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toContainText('the link was already used');

    await page.goto('/login');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid username or password');
    await logIn(page, user.username, 'maple harbour 321');
  });

  test('an unknown address gets the same answer and no mail', async ({ page, request }) => {
    const address = `${uniqueUsername('nobody')}@example.com`;
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'If an account uses that address, we sent a link to reset its password.',
    );
    expect(await mailsTo(request, address)).toEqual([]);
  });

  test('verify e-mail: the link sent at registration verifies the address', async ({
    page,
    request,
  }) => {
    const username = uniqueUsername('verify');
    const address = `${username}@example.com`;
    await page.goto('/register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill('cedar lantern 482');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/todos$/);

    await openSettings(page);
    const account = page.getByRole('region', { name: 'Account' });
    await expect(account.getByText('Not verified', { exact: true })).toBeVisible();

    const mail = await waitForMail(request, address, VERIFY_SUBJECT);
    const link = linkIn(mail, '/verify-email');
    await page.goto(link);
    await expect(page).toHaveTitle('Verify e-mail · Tally');
    // The token left the address bar; nothing is verified until the click.
    await expect(page).toHaveURL(/\/verify-email$/);
    await page.getByRole('button', { name: 'Verify e-mail address' }).click();
    await expect(page.getByRole('status')).toHaveText('Your e-mail address is verified');
    await page.getByRole('link', { name: 'Go to your settings' }).click();
    await expect(account.getByText('Verified', { exact: true })).toBeVisible();

    // A second use of the link shows the server's sentence.
    await page.goto(link);
    await expect(page.getByRole('alert')).toContainText('the link was already used');
  });
});

test.describe('account screens', () => {
  async function checkScreen(page: Page, name: string, ready: () => Promise<void>) {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await ready();
      await expectNoSeriousA11yViolations(page, `${name} (${theme})`);
    }
    await screenshotScreen(page, name, ready);
  }

  test('settings, forgot password, reset password and verify e-mail: axe and screenshots', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    const user = await registerViaApi(request, 'screens_settings');
    const other = await otherDevice(browser, user);
    await other.context.close();
    await logIn(page, user.username, user.password);
    await openSettings(page);
    await checkScreen(page, 'settings', () =>
      expect(page.getByRole('list', { name: 'Signed-in devices' })).toBeVisible(),
    );

    await page.getByRole('button', { name: `Logout ${user.username}` }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/forgot-password');
    await checkScreen(page, 'forgot-password', () =>
      expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible(),
    );

    // The page takes the token out of the address, so after each reload (a theme) the link is
    // opened again, from elsewhere: a whole page load, as from a mail.
    const resetLink = '/reset-password#token=not-a-real-token';
    await page.goto(resetLink);
    await checkScreen(page, 'reset-password', async () => {
      await page.goto('about:blank');
      await page.goto(resetLink);
      await expect(page.getByRole('button', { name: 'Set new password' })).toBeVisible();
    });
    await page.getByLabel('New password', { exact: true }).fill('maple harbour 321');
    await page.getByLabel('Repeat new password').fill('maple harbour 321');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'reset-password refused');
    await page.screenshot({ path: path.join(screenshotDir, 'reset-password-refused.png') });

    await page.goto('/verify-email#token=not-a-real-token');
    await expect(page.getByRole('alert')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'verify-email refused');
    await page.screenshot({ path: path.join(screenshotDir, 'verify-email-refused.png') });
  });
});

test('when the operator closed sign-up, /register says so and shows no form', async ({ page }) => {
  // The e2e server takes sign-ups; the server's own 403 is tested in the API suite. Here the
  // browser is told what GET /api/config says on a closed server.
  await page.route('**/api/config', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), registration: 'closed' } });
  });
  await page.goto('/register');
  await expect(page.getByText(/Sign-up is closed on this server/)).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'register closed');
});
