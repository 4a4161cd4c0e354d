import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { makeToken } from '#web/test/tokens';

describe('/login with single sign-on', () => {
  it('offers "Continue with {OIDC_NAME}" above the password form, and no dead Google button', async () => {
    fakeBackend({ oidcName: 'Authentik' });
    renderApp('/login');

    expect(await screen.findByRole('button', { name: 'Continue with Authentik' })).toBeEnabled();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.queryByText('Google sign-in is not configured')).not.toBeInTheDocument();
  });

  it('leaves the password form, recovery and sign-up out with OIDC_ONLY', async () => {
    fakeBackend({ oidcName: 'Keycloak', passwordSignIn: false });
    renderApp('/login');

    expect(await screen.findByRole('button', { name: 'Continue with Keycloak' })).toBeEnabled();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
  });

  it('says why the provider’s sign-in was refused, and forgets it when dismissed', async () => {
    fakeBackend({ oidcName: 'Authentik' });
    const { user } = renderApp('/login?oidc_error=email_exists');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account with this e-mail address already exists - sign in with your password and link Authentik in Settings',
    );
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(window.location.search).toBe('');
  });

  it('fetches the access token with the refresh cookie the callback set, then shows /todos', async () => {
    const { calls } = fakeBackend(
      { oidcName: 'Authentik' },
      { 'POST /api/auth/refresh': () => json({ accessToken: makeToken('sso-user') }) },
    );
    renderApp('/login?oidc=signed-in');

    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/todos');
    expect(window.localStorage.getItem('username')).toBe('sso-user');
    expect(calls.filter((call) => call.path === '/api/auth/refresh')).toHaveLength(1);
  });

  it('says so when the session cookie is missing after all', async () => {
    fakeBackend({ oidcName: 'Authentik' });
    renderApp('/login?oidc=signed-in');

    expect(await screen.findByRole('alert')).toHaveTextContent('No session');
    expect(screen.getByRole('button', { name: 'Continue with Authentik' })).toBeEnabled();
  });
});

describe('/register with OIDC_ONLY', () => {
  it('sends people to the provider instead of a form', async () => {
    fakeBackend({ oidcName: 'Keycloak', passwordSignIn: false });
    renderApp('/register');

    expect(
      await screen.findByText(
        'This server makes accounts through Keycloak: use Continue with Keycloak on the login page.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });
});
