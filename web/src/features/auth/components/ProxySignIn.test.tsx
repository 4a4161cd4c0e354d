import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { makeToken } from '#web/test/tokens';

describe('/login behind a forward-auth proxy', () => {
  it('turns the proxy sign-in into a session and opens the todos', async () => {
    const { calls } = fakeBackend(
      { authProxy: true },
      { 'POST /api/auth/proxy': () => json({ accessToken: makeToken('alice') }) },
    );
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/api/auth/proxy')).toHaveLength(1);
  });

  it('shows the form when the proxy named nobody, and says why when Tally has no such account', async () => {
    fakeBackend(
      { authProxy: true },
      { 'POST /api/auth/proxy': () => json({ error: 'No sign-in from a trusted proxy' }, 401) },
    );
    const { unmount } = renderApp('/login');
    expect(await screen.findByLabelText('Password')).toBeRequired();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    unmount();

    const refusal =
      'Your proxy signed you in, but Tally has no account with that username - ask the person who runs it';
    fakeBackend(
      { authProxy: true },
      { 'POST /api/auth/proxy': () => json({ error: refusal }, 403) },
    );
    renderApp('/login');
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
  });

  it('asks nothing of the proxy when forward auth is off', async () => {
    const { calls } = fakeBackend();
    renderApp('/login');
    expect(await screen.findByLabelText('Password')).toBeRequired();
    expect(calls.some((call) => call.path === '/api/auth/proxy')).toBe(false);
  });
});
