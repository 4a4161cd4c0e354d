import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLanguage } from './i18n';
import { getPasskey, PasskeyCancelled } from './webauthn';

/** The browser's side (a third party over navigator.credentials), which jsdom does not have. */
const browser = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  WebAuthnAbortService: { cancelCeremony: vi.fn() },
}));
vi.mock('@simplewebauthn/browser', () => browser);

const OPTIONS = { challenge: 'c'.repeat(43), rpId: 'localhost', userVerification: 'required' };

afterEach(async () => {
  browser.startAuthentication.mockReset();
  await activateLanguage('en');
});

/** What getPasskey throws when the browser refuses with an error of `name`. */
async function refusal(name: string): Promise<unknown> {
  browser.startAuthentication.mockRejectedValueOnce(
    Object.assign(new Error('The operation either timed out or was not allowed.'), { name }),
  );
  return getPasskey(OPTIONS as Parameters<typeof getPasskey>[0]).catch((error: unknown) => error);
}

describe('a passkey request the browser refused, in the language', () => {
  it('cancelled: in English as before, in German translated', async () => {
    const english = await refusal('NotAllowedError');
    expect(english).toBeInstanceOf(PasskeyCancelled);
    expect((english as Error).message).toBe('The passkey request was cancelled');

    await activateLanguage('de');
    const german = await refusal('NotAllowedError');
    expect(german).toBeInstanceOf(PasskeyCancelled);
    expect((german as Error).message).toBe('Die Passkey-Anfrage wurde abgebrochen');
  });

  it('at an address passkeys cannot use, in Japanese', async () => {
    await activateLanguage('ja');
    expect(((await refusal('SecurityError')) as Error).message).toBe(
      'このアドレスではパスキーを使えません - いつものアドレスで Tally を開いてください',
    );
  });
});
