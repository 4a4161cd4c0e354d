import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

describe('/verify-email', () => {
  it('names the account, verifies only on the click, and says the address is verified', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp('/verify-email#token=the-token');
    expect(await screen.findByRole('button', { name: 'Verify e-mail address' })).toBeEnabled();
    expect(document.body).toHaveTextContent(
      'Verify the e-mail address alice@example.com for the Tally account «alice»?',
    );
    expect(document.title).toBe('Verify e-mail · Tally');
    expect(window.location.href).not.toContain('the-token');
    expect(calls.find((c) => c.path === '/api/auth/verify-email/account')?.body).toEqual({
      token: 'the-token',
    });
    // Opening the link used nothing.
    expect(calls.some((c) => c.path === '/api/auth/verify-email')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Verify e-mail address' }));
    expect(await screen.findByText('Your e-mail address is verified')).toBeInTheDocument();
    const sent = calls.filter((c) => c.path === '/api/auth/verify-email');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ token: 'the-token' });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('still takes the ?token= of a link mailed before the fragment', async () => {
    const { calls } = fakeBackend();
    renderApp('/verify-email?token=older-mail');
    expect(await screen.findByRole('button', { name: 'Verify e-mail address' })).toBeEnabled();
    expect(window.location.href).not.toContain('older-mail');
    expect(calls.find((c) => c.path === '/api/auth/verify-email/account')?.body).toEqual({
      token: 'older-mail',
    });
  });

  it('leads a signed-in user back to the settings', async () => {
    storeSession('alice');
    fakeBackend();
    const { user } = renderApp('/verify-email#token=the-token');
    await user.click(await screen.findByRole('button', { name: 'Verify e-mail address' }));
    expect(await screen.findByText('Your e-mail address is verified')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  it("shows the server's sentence for a used or expired link, without a button", async () => {
    const refusal = 'token is not valid: the link was already used, has expired or is unknown';
    fakeBackend({}, { 'POST /api/auth/verify-email/account': () => json({ error: refusal }, 400) });
    renderApp('/verify-email#token=used');
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.queryByRole('button', { name: 'Verify e-mail address' })).not.toBeInTheDocument();
  });

  it('says a link without its token is incomplete, and sends nothing', async () => {
    const { calls } = fakeBackend();
    renderApp('/verify-email');
    expect(await screen.findByText(/This link is incomplete/)).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/api/auth/verify-email'))).toBe(false);
  });
});
