import { i18n } from '@lingui/core';
import { screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { expectConsoleError } from '#web/test/console-guard';
import { renderTranslated } from '#web/test/render';
import { FAKE_GOOGLE_NONCE, fakeBackend, json } from '#web/test/fake-api';
import {
  GSI_SCRIPT_URL,
  failGsiScript,
  finishGsiScript,
  gsiScripts,
  stubGoogleIdentity,
} from '#web/test/google-identity';
import { GOOGLE_REASONS, GOOGLE_SDK_MESSAGES, GoogleSignInButton } from './GoogleSignInButton';

const CLIENT_ID = 'tally-test.apps.googleusercontent.com';

function renderButton({ pending = false } = {}) {
  const onCredential = vi.fn<(credential: string) => void>();
  const onFailure = vi.fn<() => void>();
  const user = userEvent.setup();
  const view = renderTranslated(
    <QueryClientProvider client={createQueryClient()}>
      <GoogleSignInButton onCredential={onCredential} onFailure={onFailure} pending={pending} />
    </QueryClientProvider>,
  );
  return { onCredential, onFailure, user, ...view };
}

describe('GoogleSignInButton', () => {
  it('is disabled and says why when GET /api/config has no client id, and loads nothing from Google', async () => {
    const { calls } = fakeBackend({ googleClientId: null });
    renderButton();
    const button = screen.getByRole('button', { name: /Continue with Google/ });
    expect(button).toBeDisabled();
    const reason = await screen.findByText(i18n._(GOOGLE_REASONS.notConfigured));
    expect(button).toHaveAccessibleDescription(i18n._(GOOGLE_REASONS.notConfigured));
    expect(reason).toBeVisible();
    expect(calls.map((call) => call.path)).toEqual(['/api/config']);
    expect(gsiScripts()).toHaveLength(0);
  });

  it('stays disabled, with a reason, when the settings cannot be loaded', async () => {
    fakeBackend({}, { 'GET /api/config': () => json({ error: 'boom' }, 500) });
    renderButton();
    expect(await screen.findByText(i18n._(GOOGLE_REASONS.configUnavailable))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Continue with Google/ })).toBeDisabled();
    expect(gsiScripts()).toHaveLength(0);
  });

  it("loads Google's script once configured, logs it, and renders Google's button and One Tap", async () => {
    fakeBackend({ googleClientId: CLIENT_ID });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const google = stubGoogleIdentity();
    renderButton();

    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    const [script] = gsiScripts();
    expect(script?.src).toBe(GSI_SCRIPT_URL);
    expect(script?.async).toBe(true);
    // Until the script is there, a busy placeholder holds the place.
    expect(screen.getByRole('button', { name: /Continue with Google/ })).toBeDisabled();
    expect(google.initialize).not.toHaveBeenCalled();

    finishGsiScript();

    expect(log).toHaveBeenCalledWith(GOOGLE_SDK_MESSAGES.loaded);
    expect(google.initialize).toHaveBeenCalledWith(
      expect.objectContaining({
        client_id: CLIENT_ID,
        callback: expect.any(Function),
        nonce: FAKE_GOOGLE_NONCE,
      }),
    );
    expect(google.renderButton).toHaveBeenCalledTimes(1);
    const [container, options] = google.renderButton.mock.calls[0] ?? [];
    expect(options).toMatchObject({
      type: 'standard',
      theme: 'outline',
      size: 'large',
      text: 'continue_with',
    });
    expect(container).toHaveStyle({ height: '40px' });
    expect(google.prompt).toHaveBeenCalledTimes(1);
    const button = screen.getByRole('button', { name: 'Continue with Google' });
    expect(button).toBeEnabled();
  });

  it("sets Google up only with the server's nonce, which Google puts into the ID token", async () => {
    let answer: (response: Response) => void = () => undefined;
    const { calls } = fakeBackend(
      { googleClientId: CLIENT_ID },
      {
        'GET /api/auth/google/nonce': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    );
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const google = stubGoogleIdentity();
    renderButton();
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    finishGsiScript();

    // Script loaded, nonce not yet: the busy placeholder, and Google is not set up.
    expect(screen.getByRole('button', { name: /Continue with Google/ })).toBeDisabled();
    expect(google.initialize).not.toHaveBeenCalled();
    expect(google.prompt).not.toHaveBeenCalled();
    const call = calls.find((c) => c.path === '/api/auth/google/nonce');
    expect(call?.method).toBe('GET');
    expect(call?.credentials).toBe('same-origin');

    answer(json({ nonce: 'the-nonce' }));

    await waitFor(() =>
      expect(google.initialize).toHaveBeenCalledWith(
        expect.objectContaining({ client_id: CLIENT_ID, nonce: 'the-nonce' }),
      ),
    );
    expect(google.initialize).toHaveBeenCalledTimes(1);
    expect(google.prompt).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });

  it('stays disabled, with a reason, when the nonce cannot be had', async () => {
    fakeBackend(
      { googleClientId: CLIENT_ID },
      { 'GET /api/auth/google/nonce': () => json({ error: 'Too many requests' }, 429) },
    );
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const google = stubGoogleIdentity();
    renderButton();
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    finishGsiScript();

    expect(await screen.findByText(i18n._(GOOGLE_REASONS.configUnavailable))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Continue with Google/ })).toBeDisabled();
    expect(google.initialize).not.toHaveBeenCalled();
  });

  it("hands Google's credential over, from the button and from One Tap", async () => {
    fakeBackend({ googleClientId: CLIENT_ID });
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const google = stubGoogleIdentity('from-the-button');
    const { onCredential, onFailure, user } = renderButton();
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    finishGsiScript();

    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(onCredential).toHaveBeenLastCalledWith('from-the-button');

    google.oneTap('from-one-tap');
    expect(onCredential).toHaveBeenLastCalledWith('from-one-tap');

    google.oneTap(undefined);
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onCredential).toHaveBeenCalledTimes(2);
  });

  it('says "Google SDK failed to load" when the script cannot load, and stays disabled with the reason', async () => {
    fakeBackend({ googleClientId: CLIENT_ID });
    renderButton();
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));

    failGsiScript();

    expectConsoleError(/^Google SDK failed to load$/);
    const button = screen.getByRole('button', { name: /Continue with Google/ });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(i18n._(GOOGLE_REASONS.scriptFailed));
  });

  it('cancels One Tap when it goes away', async () => {
    fakeBackend({ googleClientId: CLIENT_ID });
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const google = stubGoogleIdentity();
    const { unmount } = renderButton();
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    finishGsiScript();
    unmount();
    expect(google.cancel).toHaveBeenCalled();
    expect(gsiScripts()).toHaveLength(0);
  });
});
