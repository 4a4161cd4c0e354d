import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, noContent } from '#web/test/fake-api';
import { renderApp, renderSection } from '#web/test/render';
import { storeSession } from '#web/test/tokens';
import { SettingsPage } from './SettingsPage';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };
const section = () => screen.findByRole('region', { name: 'Authentik' });

/** Settings alone, at `path`, as a server with single sign-on named `oidcName` shows it. */
function renderSettings(path: string, oidcName: string | null = 'Authentik') {
  window.history.replaceState(null, '', path);
  return renderSection(
    <SettingsPage mailEnabled={false} GoogleButton={() => null} oidcName={oidcName} />,
  );
}

describe('/settings, single sign-on', () => {
  it('is absent while single sign-on is not configured', async () => {
    fakeBackend();
    renderSettings('/settings', null);
    await screen.findByRole('region', { name: 'Account' });
    expect(screen.queryByRole('region', { name: 'Authentik' })).not.toBeInTheDocument();
  });

  it('offers to link the provider when it is not linked', async () => {
    fakeBackend({ oidcName: 'Authentik' });
    renderSettings('/settings');
    const region = await section();
    expect(region).toHaveTextContent('Not linked. Link your Authentik account to sign in with it');
    expect(within(region).getByRole('button', { name: 'Link Authentik' })).toBeEnabled();
  });

  it('says the link is made when the provider sends the browser back, and unlinks', async () => {
    const { calls } = fakeBackend(
      { oidcName: 'Authentik', account: { oidcLinked: true } },
      { 'DELETE /api/account/oidc': () => noContent() },
    );
    const { user } = renderSettings('/settings?oidc=linked');
    const region = await section();
    expect(region).toHaveTextContent('Authentik is linked: you can sign in with Authentik too.');

    await user.click(within(region).getByRole('button', { name: 'Unlink Authentik' }));
    expect(await within(region).findByText('Authentik is unlinked.')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Link Authentik' })).toBeEnabled();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/account/oidc')).toBe(true);
  });

  it('says why a link was refused', async () => {
    fakeBackend({ oidcName: 'Authentik' });
    renderSettings('/settings?oidc_error=linked_elsewhere');
    const region = await section();
    expect(within(region).getByRole('alert')).toHaveTextContent(
      'That Authentik account is already linked to another Tally account',
    );
  });

  it('keeps the only way to sign in: no unlink without a password or Google', async () => {
    fakeBackend({
      oidcName: 'Authentik',
      account: { oidcLinked: true, hasPassword: false, googleLinked: false },
    });
    renderSettings('/settings');
    const region = await section();
    expect(within(region).queryByRole('button', { name: 'Unlink Authentik' })).toBeNull();
    expect(region).toHaveTextContent(
      'Authentik cannot be unlinked while your account has no password',
    );
    expect(screen.getByRole('region', { name: 'Password' })).toHaveTextContent(
      'Your account was made with Authentik and has no password: you sign in with Authentik.',
    );
  });

  it('offers a fresh sign-in at the provider in "Confirm it’s you"', async () => {
    fakeBackend({
      oidcName: 'Authentik',
      proofExpired: true,
      account: { oidcLinked: true, hasPassword: false, googleLinked: false },
    });
    // The whole page, as the route composes it: the prompt answers another feature's section.
    const { user } = renderApp('/settings');
    const tokens = await screen.findByRole('region', { name: 'API tokens' }, LAZY_LOAD);
    const form = within(tokens).getByRole('form', { name: 'New API token' });
    await user.type(within(form).getByLabelText('Name'), 'Backup script');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(dialog).toHaveTextContent('Sign in with Authentik again; you come back to this page');
    expect(within(dialog).getByRole('button', { name: 'Continue with Authentik' })).toBeEnabled();
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
  });
});
