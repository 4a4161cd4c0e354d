import type { Page } from '@playwright/test';
import { IDP_ORIGIN } from './google-settings';

/** The URL @react-oauth/google loads Google Identity Services from. */
export const GSI_CLIENT_URL = 'https://accounts.google.com/gsi/client';

interface MintOptions {
  claims?: Record<string, unknown>;
  expiresIn?: string;
  /** Sign with a key the JWKS does not publish. */
  unknownKey?: boolean;
}

/** An ID token signed by the local identity provider (support/local-google-idp.mjs). */
async function mintIdToken(options: MintOptions): Promise<string> {
  const response = await fetch(`${IDP_ORIGIN}/id-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(options),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token) throw new Error(`local IdP: ${body.error ?? response.status}`);
  return body.token;
}

export interface StandInOptions {
  /**
   * The ID token the rendered button hands the callback when clicked, minted by the local IdP at
   * that moment. As Google does, it carries the nonce the app passed to `initialize`; `claims`
   * may override it (`nonce: undefined` leaves the claim out).
   */
  credential: MintOptions;
  /** One Tap: hand such a token to the callback as soon as the prompt is shown. */
  oneTapCredential?: MintOptions;
}

/** What a stand-in handed the app, for the tests. */
export interface StandIn {
  /** Every ID token given to the app's callback, in order. */
  issued: string[];
}

/** The page's way to the local IdP: Tally's CSP admits no other origin, so it goes through Node. */
const MINT_BINDING = '__gsiMint';

/**
 * A stand-in for Google's client script: defines window.google.accounts.id with the calls
 * @react-oauth/google makes (initialize, renderButton, prompt, cancel, disableAutoSelect),
 * renders a button shaped like Google's outline button that hands the configured callback
 * {credential} (an ID token minted with the nonce `initialize` was given), and records the calls
 * in window.__gsi for the tests. Runs under Tally's CSP (no inline styles in markup; styles are
 * set through the CSSOM).
 */
function standInScript({ oneTapCredential }: StandInOptions): string {
  return `(() => {
  const record = { initialize: [], renderButton: [], prompt: 0, cancel: 0, disableAutoSelect: 0 };
  window.__gsi = record;
  let config = {};
  const answer = async (which, selectBy) => {
    const callback = config.callback;
    const value = await window.${MINT_BINDING}(which, config.nonce);
    if (typeof callback === 'function') callback({ credential: value, select_by: selectBy });
  };
  const heights = { large: 40, medium: 32, small: 20 };
  const svg = (name, attributes) => {
    const element = document.createElementNS('http://www.w3.org/2000/svg', name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  };
  const logo = () => {
    const icon = svg('svg', { viewBox: '0 0 48 48', width: '18', height: '18', 'aria-hidden': 'true' });
    const paths = [
      ['#EA4335', 'M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z'],
      ['#4285F4', 'M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z'],
      ['#FBBC05', 'M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z'],
      ['#34A853', 'M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z'],
    ];
    for (const [fill, d] of paths) icon.appendChild(svg('path', { fill, d }));
    return icon;
  };
  window.google = {
    accounts: {
      id: {
        initialize(next) {
          config = next;
          record.initialize.push({ client_id: next.client_id, nonce: next.nonce });
        },
        renderButton(parent, options) {
          record.renderButton.push(options);
          const button = document.createElement('button');
          button.type = 'button';
          button.dataset.gsiStandIn = 'true';
          button.append(logo(), document.createTextNode(
            options.text === 'signin_with' ? 'Sign in with Google' : 'Continue with Google'));
          Object.assign(button.style, {
            display: 'flex', alignItems: 'center', justifyContent: 'center', gap: '10px',
            boxSizing: 'border-box', height: (heights[options.size] ?? 40) + 'px',
            width: options.width ? options.width + 'px' : 'auto', padding: '0 12px',
            background: '#fff', color: '#1f1f1f', border: '1px solid #747775',
            borderRadius: options.shape === 'pill' ? '20px' : '4px',
            font: '500 14px Roboto, Arial, sans-serif', cursor: 'pointer',
          });
          button.addEventListener('click', () => answer('button', 'btn'));
          parent.replaceChildren(button);
        },
        prompt() {
          record.prompt += 1;
          ${oneTapCredential ? `setTimeout(() => answer('oneTap', 'auto'), 0);` : ''}
        },
        cancel() { record.cancel += 1; },
        disableAutoSelect() { record.disableAutoSelect += 1; },
      },
    },
  };
})();`;
}

/** Serves the stand-in in place of Google's client script for this page (before its goto). */
export async function routeGoogleClient(page: Page, options: StandInOptions): Promise<StandIn> {
  const standIn: StandIn = { issued: [] };
  await page.exposeFunction(
    MINT_BINDING,
    async (which: 'button' | 'oneTap', nonce: string | undefined) => {
      const mint =
        (which === 'oneTap' ? options.oneTapCredential : undefined) ?? options.credential;
      const token = await mintIdToken({ ...mint, claims: { nonce, ...mint.claims } });
      standIn.issued.push(token);
      return token;
    },
  );
  await page.route(`${GSI_CLIENT_URL}**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/javascript; charset=utf-8',
      body: standInScript(options),
    }),
  );
  return standIn;
}

/** What the stand-in recorded of the app's calls. */
export interface GsiRecord {
  /** The client id and the nonce of each `initialize`. */
  initialize: { client_id: string; nonce?: string }[];
  renderButton: Record<string, unknown>[];
  prompt: number;
  cancel: number;
  disableAutoSelect: number;
}

export function gsiRecord(page: Page): Promise<GsiRecord> {
  return page.evaluate(() => (window as unknown as { __gsi: GsiRecord }).__gsi);
}
