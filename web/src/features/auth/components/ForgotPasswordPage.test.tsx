import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, json, networkFailure } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

describe('/forgot-password', () => {
  it('is linked from /login as "Forgot password?"', async () => {
    fakeBackend();
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Forgot password' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/forgot-password');
    expect(document.title).toBe('Forgot password · Tally');
  });

  it('sends the address and says the same whatever the answer', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp('/forgot-password');
    const email = await screen.findByLabelText('Email');
    expect(email).toBeRequired();
    expect(email).toHaveAttribute('type', 'email');

    await user.type(email, ' nobody@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account uses that address, we sent a link to reset its password.',
    );
    expect(calls.find((c) => c.path === '/api/auth/password-reset')).toMatchObject({
      method: 'POST',
      body: { email: 'nobody@example.com' },
    });
    expect(screen.queryByRole('form', { name: 'Forgot password' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });

  it('shows a failure that is not an answer about the address (rate limit, network)', async () => {
    fakeBackend(
      {},
      {
        'POST /api/auth/password-reset': () =>
          json({ error: 'Too many attempts - try again in 1 minute' }, 429),
      },
    );
    const { user } = renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('Email'), 'alice@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts - try again in 1 minute',
    );
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com');
  });

  it('still offers the form when the settings cannot be loaded', async () => {
    fakeBackend({}, { 'GET /api/config': networkFailure });
    renderApp('/forgot-password');
    expect(await screen.findByRole('form', { name: 'Forgot password' })).toBeInTheDocument();
  });

  it('explains that the operator resets passwords when the server sends no e-mail', async () => {
    const { calls } = fakeBackend({ passwordResetByEmail: false });
    renderApp('/forgot-password');
    expect(await screen.findByText(/does not send e-mail/)).toBeInTheDocument();
    expect(screen.getByText(/person who runs this server resets passwords/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Forgot password' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/auth/password-reset')).toBe(false);
  });

  it('is open to a signed-in user too', async () => {
    storeSession('alice');
    fakeBackend();
    renderApp('/forgot-password');
    expect(await screen.findByRole('form', { name: 'Forgot password' })).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/forgot-password'));
  });
});
