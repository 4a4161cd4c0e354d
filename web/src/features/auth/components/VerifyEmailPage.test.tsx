import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

describe('/verify-email', () => {
  it('sends the token once on load and says the address is verified', async () => {
    const { calls } = fakeBackend();
    renderApp('/verify-email#token=the-token');
    expect(await screen.findByText('Your e-mail address is verified')).toBeInTheDocument();
    expect(document.title).toBe('Verify e-mail · Tally');
    const sent = calls.filter((c) => c.path === '/api/auth/verify-email');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ token: 'the-token' });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('leads a signed-in user back to the settings', async () => {
    storeSession('alice');
    fakeBackend();
    renderApp('/verify-email#token=the-token');
    expect(await screen.findByText('Your e-mail address is verified')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  it("shows the server's sentence for a used or expired link", async () => {
    const refusal = 'token is not valid: the link was already used, has expired or is unknown';
    fakeBackend({}, { 'POST /api/auth/verify-email': () => json({ error: refusal }, 400) });
    renderApp('/verify-email#token=used');
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.queryByText('Your e-mail address is verified')).not.toBeInTheDocument();
  });

  it('says a link without its token is incomplete, and sends nothing', async () => {
    const { calls } = fakeBackend();
    renderApp('/verify-email');
    expect(await screen.findByText(/This link is incomplete/)).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/auth/verify-email')).toBe(false);
  });
});
