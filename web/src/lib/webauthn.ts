import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type {
  PasskeyAuthenticationOptions,
  PasskeyAuthenticationResponse,
  PasskeyRegistrationOptions,
  PasskeyRegistrationResponse,
} from '@tally/contract';
import type * as WebAuthnBrowser from '@simplewebauthn/browser';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/**
 * The browser's side of passkeys (docs/decisions/082-passkeys.md), through
 * @simplewebauthn/browser. The library is loaded on first use, so /login's first download stays
 * within its budget (scripts/check-bundle-size.mjs) for everyone who signs in with a password.
 */

let loading: Promise<typeof WebAuthnBrowser> | null = null;
const browserLibrary = () => (loading ??= import('@simplewebauthn/browser'));

/** Whether this browser has WebAuthn at all (no library needed to tell). */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** Whether the browser offers passkeys in a username field's autofill (conditional UI). */
export async function passkeyAutofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  return (await browserLibrary()).browserSupportsWebAuthnAutofill();
}

/** The person closed the browser's prompt, it timed out, or another request replaced it. */
export class PasskeyCancelled extends Error {
  override readonly name = 'PasskeyCancelled';
}

/** The browser refuses passkeys at this address (an IP address, another host than PUBLIC_URL's). */
export class PasskeyUnavailableHere extends Error {
  override readonly name = 'PasskeyUnavailableHere';
}

/** A sentence for what the browser refused, or PasskeyCancelled when the person just said no. */
function explain(error: unknown, creating: boolean): Error {
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: string } | null)?.code;
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return new PasskeyCancelled(i18n._(msg`The passkey request was cancelled`));
  }
  if (creating && name === 'InvalidStateError') {
    return new Error(i18n._(msg`This device already holds a passkey for your account`));
  }
  if (name === 'SecurityError') {
    return new PasskeyUnavailableHere(
      i18n._(msg`Passkeys do not work at this address - open Tally at its usual address`),
    );
  }
  return new Error(i18n._(msg`This browser could not use a passkey - please try again`));
}

/** navigator.credentials.create with the server's options: a new passkey. */
export async function createPasskey(
  options: PasskeyRegistrationOptions,
): Promise<PasskeyRegistrationResponse> {
  const { startRegistration } = await browserLibrary();
  try {
    // The server made these options with @simplewebauthn/server: the library's own type.
    const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
    return (await startRegistration({ optionsJSON })) as PasskeyRegistrationResponse;
  } catch (error) {
    throw explain(error, true);
  }
}

/**
 * navigator.credentials.get with the server's options. With `autofill` the request waits for the
 * person to pick a passkey in the username field's suggestions (mediation 'conditional').
 */
export async function getPasskey(
  options: PasskeyAuthenticationOptions,
  { autofill = false }: { autofill?: boolean } = {},
): Promise<PasskeyAuthenticationResponse> {
  const { startAuthentication } = await browserLibrary();
  try {
    const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
    return (await startAuthentication({
      optionsJSON,
      useBrowserAutofill: autofill,
    })) as PasskeyAuthenticationResponse;
  } catch (error) {
    throw explain(error, false);
  }
}

/** Ends a waiting autofill request (leaving the login page). */
export async function cancelPasskeyRequest(): Promise<void> {
  if (loading) (await loading).WebAuthnAbortService.cancelCeremony();
}
