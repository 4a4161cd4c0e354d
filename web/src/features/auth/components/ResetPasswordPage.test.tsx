import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSession } from '#web/lib/session-store';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

describe('/reset-password', () => {
  it('sets the new password given twice with the link token, then leads to the login', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp('/reset-password#token=abc_DEF-123');
    expect(await screen.findByRole('heading', { name: 'Reset password' })).toBeInTheDocument();
    expect(document.title).toBe('Reset password · Tally');
    const password = screen.getByLabelText('New password');
    expect(password).toBeRequired();
    expect(password).toHaveAttribute('minLength', '8');
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(password).toHaveAccessibleDescription(
      'At least 8 characters. Setting it signs out every device, revokes every API token and turns the calendar feed off.',
    );

    await user.type(password, 'a long new password');
    await user.type(screen.getByLabelText('Repeat new password'), 'a long new password');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your password is set. Every device signed in to your account was signed out, every API token revoked and the calendar feed turned off (make a new feed URL in Settings if you want it). A linked Google or single sign-on account stays linked only if your address was verified before: Settings shows what is linked.',
    );
    expect(calls.find((c) => c.path === '/api/auth/password-reset/confirm')).toMatchObject({
      method: 'POST',
      body: { token: 'abc_DEF-123', password: 'a long new password' },
    });
    // The token left the address bar (history, bookmarks) as soon as the page read it.
    expect(window.location.href).not.toContain('abc_DEF-123');
    await user.click(screen.getByRole('link', { name: 'Log in with your new password' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
  });

  it('refuses two different passwords without asking the server', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp('/reset-password#token=abc');
    await user.type(await screen.findByLabelText('New password'), 'a long new password');
    await user.type(screen.getByLabelText('Repeat new password'), 'another password');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The two passwords are not the same',
    );
    expect(calls.some((c) => c.path === '/api/auth/password-reset/confirm')).toBe(false);
  });

  it("shows the server's sentence for a used or expired link, and a way to a new one", async () => {
    const refusal = 'token is not valid: the link was already used, has expired or is unknown';
    fakeBackend(
      {},
      { 'POST /api/auth/password-reset/confirm': () => json({ error: refusal }, 400) },
    );
    const { user } = renderApp('/reset-password#token=old');
    await user.type(await screen.findByLabelText('New password'), 'a long new password');
    await user.type(screen.getByLabelText('Repeat new password'), 'a long new password');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('still takes the ?token= of a link mailed before the fragment, and drops it from the address', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp('/reset-password?token=from-an-older-mail');
    await user.type(await screen.findByLabelText('New password'), 'a long new password');
    expect(window.location.href).not.toContain('from-an-older-mail');
    await user.type(screen.getByLabelText('Repeat new password'), 'a long new password');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await screen.findByRole('status');
    expect(calls.find((c) => c.path === '/api/auth/password-reset/confirm')?.body).toEqual({
      token: 'from-an-older-mail',
      password: 'a long new password',
    });
  });

  it('says a link without its token is incomplete', async () => {
    fakeBackend();
    renderApp('/reset-password');
    expect(await screen.findByText(/This link is incomplete/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('signs this browser out too when it was signed in (the reset ended every session)', async () => {
    storeSession('alice');
    fakeBackend();
    const { user } = renderApp('/reset-password#token=abc');
    await user.type(await screen.findByLabelText('New password'), 'a long new password');
    await user.type(screen.getByLabelText('Repeat new password'), 'a long new password');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await screen.findByRole('status');
    expect(getSession().token).toBeNull();
    expect(screen.queryByRole('button', { name: /Logout/ })).not.toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/reset-password'));
  });

  it("shows a refused password's sentence beside the field; the link still works", async () => {
    const refusal = 'password is too common - choose another';
    fakeBackend(
      {},
      { 'POST /api/auth/password-reset/confirm': () => json({ error: refusal }, 400) },
    );
    const { user } = renderApp('/reset-password?token=abc');
    const password = await screen.findByLabelText('New password');
    await user.type(password, 'iloveyou');
    await user.type(screen.getByLabelText('Repeat new password'), 'iloveyou');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        `At least 8 characters. Setting it signs out every device, revokes every API token and turns the calendar feed off. The password is too common - choose another.`,
      ),
    );
    expect(password).toBeInvalid();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Ask for a new link' })).not.toBeInTheDocument();
  });
});
