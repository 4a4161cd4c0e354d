import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { makeToken } from '#web/test/tokens';

/**
 * "Sign in with a passkey" on /login. jsdom has no WebAuthn, so the browser's side (the third
 * party: @simplewebauthn/browser over navigator.credentials) is stubbed; the real ceremony runs in
 * Chromium with a virtual authenticator (e2e/tests/passkeys.spec.ts).
 */

const browser = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  browserSupportsWebAuthnAutofill: vi.fn(async () => false),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
}));
vi.mock('@simplewebauthn/browser', () => browser);

const OPTIONS = { challenge: 'c'.repeat(43), rpId: 'localhost', userVerification: 'required' };
const ANSWER = {
  id: 'abc',
  rawId: 'abc',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'u' },
};

beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  browser.startAuthentication.mockReset();
  browser.browserSupportsWebAuthnAutofill.mockReset();
});

describe('/login with a passkey', () => {
  it('asks the server for options, the browser for a passkey, then signs in as a login does', async () => {
    browser.startAuthentication.mockResolvedValue(ANSWER);
    const { calls } = fakeBackend(
      {},
      {
        'POST /api/auth/passkey/options': () => json(OPTIONS),
        'POST /api/auth/passkey': () => json({ accessToken: makeToken('alice') }),
      },
    );
    const { user } = renderApp('/login');
    expect(await screen.findByLabelText('Username')).toHaveAttribute(
      'autocomplete',
      'username webauthn',
    );
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));

    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(browser.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: OPTIONS,
      useBrowserAutofill: false,
    });
    expect(calls.find((call) => call.path === '/api/auth/passkey')?.body).toEqual({
      response: ANSWER,
    });
    expect(screen.getByRole('button', { name: 'Logout alice' })).toBeInTheDocument();
  });

  it("shows the server's sentence for a refused passkey, and nothing when the prompt is closed", async () => {
    fakeBackend(
      {},
      {
        'POST /api/auth/passkey/options': () => json(OPTIONS),
        'POST /api/auth/passkey': () =>
          json({ error: 'This passkey is not registered here - it may have been removed' }, 401),
      },
    );
    browser.startAuthentication.mockResolvedValueOnce(ANSWER);
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This passkey is not registered here - it may have been removed',
    );

    browser.startAuthentication.mockRejectedValueOnce(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
  });

  it('offers no autofill and says nothing at an address passkeys cannot use, until the button is pressed', async () => {
    const wrongAddress = () =>
      Object.assign(new Error('This is an invalid domain'), { name: 'SecurityError' });
    browser.browserSupportsWebAuthnAutofill.mockResolvedValueOnce(true);
    browser.startAuthentication.mockRejectedValue(wrongAddress());
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    fakeBackend({}, { 'POST /api/auth/passkey/options': () => json(OPTIONS) });
    const { user } = renderApp('/login');
    // The autofill attempt has ended (quietly) before the banner is looked for.
    await waitFor(() =>
      expect(info).toHaveBeenCalledWith(
        'Passkey suggestions are off at this address',
        expect.any(String),
      ),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText(/Passkeys do not work at this address/)).toBeInTheDocument();
  });

  it('offers passkeys in the username autofill when the browser can', async () => {
    browser.browserSupportsWebAuthnAutofill.mockResolvedValueOnce(true);
    browser.startAuthentication.mockResolvedValue(ANSWER);
    fakeBackend(
      {},
      {
        'POST /api/auth/passkey/options': () => json(OPTIONS),
        'POST /api/auth/passkey': () => json({ accessToken: makeToken('alice') }),
      },
    );
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(browser.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: OPTIONS,
      useBrowserAutofill: true,
    });
  });

  it('starts no passkey suggestions on the two-factor step, which has no username field, and shows no error', async () => {
    browser.browserSupportsWebAuthnAutofill.mockResolvedValue(true);
    // As the library does: the suggestions need a field whose autocomplete ends in "webauthn",
    // and while one is there the request waits for the person.
    browser.startAuthentication.mockImplementation(
      ({ useBrowserAutofill }: { useBrowserAutofill: boolean }) => {
        if (!useBrowserAutofill) return Promise.resolve(ANSWER);
        if (!document.querySelector("input[autocomplete$='webauthn']")) {
          return Promise.reject(new Error('No <input> with "webauthn" was detected'));
        }
        return new Promise(() => undefined);
      },
    );
    fakeBackend(
      {},
      {
        'POST /api/auth/passkey/options': () => json(OPTIONS),
        'POST /api/auth/login': () =>
          json({ mfaRequired: true, mfaToken: 'mfa-token-123', methods: ['totp', 'passkey'] }),
      },
    );
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('heading', { name: 'Two-factor code' })).toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: 'Sign in with a passkey' }),
    ).toBeInTheDocument();
    // Whatever the step would have started has had its turn before the banner is looked for.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
