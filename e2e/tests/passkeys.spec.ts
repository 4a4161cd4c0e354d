import { expect, test, type CDPSession, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations,
  registerViaApi,
  screenshotScreen,
} from '../support/fixtures';
import { E2E_PORT } from '../support/ports';

/**
 * Passkeys in Chromium with a virtual authenticator (DevTools protocol WebAuthn domain: a
 * platform authenticator with resident keys and user verification, as a phone or laptop has):
 * add one in Settings, sign out, sign in with it, remove it.
 *
 * The pages are opened at http://localhost, not 127.0.0.1: WebAuthn takes no IP address as a
 * relying-party id, and the server (PUBLIC_URL on loopback) uses "localhost"
 * (server/src/passkeys/relying-party.ts).
 */
test.use({ baseURL: `http://localhost:${E2E_PORT}` });

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

const credentialsOf = async (cdp: CDPSession, authenticatorId: string) =>
  (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;

async function logIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('button', { name: `Logout ${username}` })).toBeVisible();
}

async function openPasskeys(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section).toBeVisible();
  return section;
}

/**
 * A browser without passkey autofill: the virtual authenticator answers any request at once, so
 * with autofill /login would sign in by itself before the button could be tried (the autofill
 * test below relies on exactly that).
 */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', {
      value: async () => false,
    });
  });
}

test('add a passkey in Settings, sign out, sign in with it, remove it', async ({
  page,
  request,
}) => {
  const user = await registerViaApi(request, 'passkey');
  await withoutAutofill(page);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  await logIn(page, user.username, user.password);

  let section = await openPasskeys(page);
  await expect(section.getByText('You have no passkeys.')).toBeVisible();
  await section.getByLabel('Passkey name').fill('E2E laptop');
  await section.getByRole('button', { name: 'Add passkey' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Passkey E2E laptop is added: you can sign in with it.',
  );
  const list = section.getByRole('list', { name: 'Passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText(/E2E laptop.*Last used never/);
  // A discoverable credential, stored on the authenticator for this site.
  const stored = await credentialsOf(cdp, authenticatorId);
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
  await expectNoSeriousA11yViolations(page, '/settings with a passkey');
  await screenshotScreen(page, 'settings-passkeys', async () => {
    await expect(
      page.getByRole('region', { name: 'Passkeys' }).getByText('E2E laptop'),
    ).toBeVisible();
  });

  await page.getByRole('button', { name: `Logout ${user.username}` }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The username field offers passkeys in its autofill (conditional UI).
  await expect(page.getByLabel('Username')).toHaveAttribute('autocomplete', 'username webauthn');
  await expectNoSeriousA11yViolations(page, '/login with passkeys');
  await screenshotScreen(page, 'login-passkeys', async () => {
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  });

  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
  await expect(page).toHaveURL(/\/todos$/);

  // A passkey sign-in is a fresh proof of identity: removing needs no password prompt.
  section = await openPasskeys(page);
  await expect(list.getByRole('listitem')).toContainText(/Last used \w/);
  await expect(list.getByRole('listitem')).not.toContainText('Last used never');
  await section.getByRole('button', { name: 'Remove passkey E2E laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove passkey' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(section.getByText('You have no passkeys.')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Confirm it’s you' })).toBeHidden();

  // The authenticator still holds the key, but it no longer signs in.
  await page.getByRole('button', { name: `Logout ${user.username}` }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'This passkey is not registered here - it may have been removed',
  );
  await expect(page).toHaveURL(/\/login$/);
});

test("the username field's passkey suggestion signs in (conditional UI)", async ({
  page,
  request,
}) => {
  const user = await registerViaApi(request, 'autofill');
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  await logIn(page, user.username, user.password);
  const section = await openPasskeys(page);
  await section.getByLabel('Passkey name').fill('Phone');
  await section.getByRole('button', { name: 'Add passkey' }).click();
  await expect(section.getByRole('status')).toContainText('Passkey Phone is added');
  expect(await credentialsOf(cdp, authenticatorId)).toHaveLength(1);

  await page.getByRole('button', { name: `Logout ${user.username}` }).click();
  // /login asks with mediation 'conditional'; picking the suggestion (the virtual authenticator
  // does at once) signs in without the button or the password.
  await expect(page.getByRole('button', { name: `Logout ${user.username}` })).toBeVisible();
  await expect(page).toHaveURL(/\/todos$/);
});
