import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * Google Identity Services, stubbed as the third party it is: `window.google.accounts.id` with
 * the calls @react-oauth/google makes, and a rendered button that hands the configured callback
 * a credential when clicked. The script tag the library appends is never fetched by jsdom; the
 * tests fire its load or error event themselves.
 */

export const GSI_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

interface CredentialResponse {
  credential?: string;
  select_by?: string;
}

interface IdConfiguration {
  client_id?: string;
  callback?: (response: CredentialResponse) => void;
}

export interface GoogleIdentityStub {
  initialize: ReturnType<typeof vi.fn<(config: IdConfiguration) => void>>;
  renderButton: ReturnType<
    typeof vi.fn<(parent: HTMLElement, options: Record<string, unknown>) => void>
  >;
  prompt: ReturnType<typeof vi.fn<() => void>>;
  cancel: ReturnType<typeof vi.fn<() => void>>;
  disableAutoSelect: ReturnType<typeof vi.fn<() => void>>;
  /** What Google's button will hand over when clicked (undefined: a response without one). */
  nextCredential: string | undefined;
  /** Calls the configured callback as One Tap would. */
  oneTap(credential: string | undefined): void;
}

/** Installs the stub on window.google; vi.unstubAllGlobals (in setup.ts) removes it. */
export function stubGoogleIdentity(
  credential: string | undefined = 'google-id-token',
): GoogleIdentityStub {
  let config: IdConfiguration = {};
  const stub: GoogleIdentityStub = {
    nextCredential: credential,
    initialize: vi.fn((next: IdConfiguration) => {
      config = next;
    }),
    renderButton: vi.fn((parent: HTMLElement, options: Record<string, unknown>) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Continue with Google';
      button.dataset.options = JSON.stringify(options);
      button.addEventListener('click', () =>
        config.callback?.({ credential: stub.nextCredential, select_by: 'btn' }),
      );
      parent.replaceChildren(button);
    }),
    prompt: vi.fn(),
    cancel: vi.fn(),
    disableAutoSelect: vi.fn(),
    oneTap: (oneTapCredential) => {
      act(() => config.callback?.({ credential: oneTapCredential, select_by: 'auto' }));
    },
  };
  vi.stubGlobal('google', {
    accounts: {
      id: {
        initialize: stub.initialize,
        renderButton: stub.renderButton,
        prompt: stub.prompt,
        cancel: stub.cancel,
        disableAutoSelect: stub.disableAutoSelect,
      },
    },
  });
  return stub;
}

/** The script tags that would load Google's client. */
export function gsiScripts(): HTMLScriptElement[] {
  return [...document.querySelectorAll<HTMLScriptElement>('script')].filter((script) =>
    script.src.startsWith(GSI_SCRIPT_URL),
  );
}

function gsiScript(): HTMLScriptElement {
  const [script] = gsiScripts();
  if (!script) throw new Error(`No <script src="${GSI_SCRIPT_URL}"> in the document`);
  return script;
}

/** The browser finished loading Google's script. */
export function finishGsiScript(): void {
  const script = gsiScript();
  act(() => {
    script.dispatchEvent(new Event('load'));
  });
}

/** The browser could not load Google's script (offline, blocked). */
export function failGsiScript(): void {
  const script = gsiScript();
  act(() => {
    script.dispatchEvent(new Event('error'));
  });
}
