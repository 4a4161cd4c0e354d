import { screen, within } from '@testing-library/react';
import type { Passkey } from '@tally/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

/**
 * Settings → Passkeys without WebAuthn (jsdom has none): the list, renaming and removing.
 * Adding one and signing in with it run in Chromium with a virtual authenticator
 * (e2e/tests/passkeys.spec.ts).
 */

/** The browser's side of WebAuthn (a third party), for the tests that have a PublicKeyCredential. */
const browser = vi.hoisted(() => ({
  startAuthentication: vi.fn(async () => ({
    id: 'abc',
    rawId: 'abc',
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
  })),
  browserSupportsWebAuthnAutofill: vi.fn(async () => false),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
}));
vi.mock('@simplewebauthn/browser', () => browser);

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

const laptop: Passkey = {
  id: 3,
  name: 'Laptop',
  createdAt: '2026-01-02T03:04:05.000Z',
  lastUsedAt: null,
};
const phone: Passkey = {
  id: 4,
  name: 'Phone',
  createdAt: '2026-01-03T03:04:05.000Z',
  lastUsedAt: '2026-02-03T04:05:06.000Z',
};

async function openPasskeys() {
  const view = renderApp('/settings');
  const section = await screen.findByRole('region', { name: 'Passkeys' }, LAZY_LOAD);
  return { ...view, section };
}

describe('/settings, Passkeys', () => {
  it('lists the passkeys with when they were added and last used', async () => {
    fakeBackend({ passkeys: [laptop, phone] });
    const { section } = await openPasskeys();
    const list = await within(section).findByRole('list', { name: 'Passkeys' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(/Laptop.*Added.*Last used never/);
    expect(within(rows[1] as HTMLElement).getAllByRole('time')[1]).toHaveAttribute(
      'dateTime',
      phone.lastUsedAt,
    );
    // jsdom has no WebAuthn: the form is not offered, the list still is.
    expect(within(section).getByText('This browser cannot make passkeys.')).toBeInTheDocument();
  });

  it('says when there are none', async () => {
    fakeBackend();
    const { section } = await openPasskeys();
    expect(await within(section).findByText('You have no passkeys.')).toBeInTheDocument();
  });

  it('renames one in place', async () => {
    const { calls } = fakeBackend({ passkeys: [laptop] });
    const { user, section } = await openPasskeys();
    await user.click(await within(section).findByRole('button', { name: 'Rename passkey Laptop' }));
    const field = within(section).getByLabelText('New name');
    await user.clear(field);
    await user.type(field, 'Work laptop');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('Work laptop')).toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Passkey renamed to Work laptop.',
    );
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Work laptop' });
  });

  it('removes one after asking', async () => {
    const { calls } = fakeBackend({ passkeys: [laptop] });
    const { user, section } = await openPasskeys();
    await user.click(await within(section).findByRole('button', { name: 'Remove passkey Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove passkey' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(section).findByText('You have no passkeys.')).toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Passkey Laptop is removed: it no longer signs in.',
    );
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/account/passkeys/3')).toBe(
      true,
    );
  });
});

describe('/settings, Passkeys: ending the other access with a removal', () => {
  it('offers to sign out every other device and revoke the API tokens and feed', async () => {
    const { calls } = fakeBackend({ passkeys: [laptop] });
    const { user, section } = await openPasskeys();
    await user.click(await within(section).findByRole('button', { name: 'Remove passkey Laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove passkey' });
    const signOut = within(dialog).getByRole('checkbox', {
      name: 'Also sign out every other device signed in to your account',
    });
    const revoke = within(dialog).getByRole('checkbox', {
      name: /^Also revoke every API token and turn the calendar feed off/,
    });
    expect(signOut).not.toBeChecked();
    expect(revoke).not.toBeChecked();
    await user.click(signOut);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(section).findByText('You have no passkeys.')).toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Passkey Laptop is removed: it no longer signs in. Every other device was signed out.',
    );
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({
      endOtherSessions: true,
      endApiTokensAndFeed: false,
    });
  });
});

describe('/settings, Confirm it’s you with a passkey', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers "Use a passkey" when the account has one, then makes the change', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const { calls } = fakeBackend({ passkeys: [laptop], proofExpired: true });
    const { user, section } = await openPasskeys();
    await user.click(await within(section).findByRole('button', { name: 'Remove passkey Laptop' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove passkey' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));

    const prompt = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(prompt).getByRole('button', { name: 'Use a passkey' }));
    expect(await within(section).findByText('You have no passkeys.')).toBeInTheDocument();
    expect(browser.startAuthentication).toHaveBeenCalledTimes(1);
    expect(calls.filter((c) => c.path === '/api/account/passkeys/3')).toHaveLength(2);
  });
});
