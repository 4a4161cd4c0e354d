import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSession } from '#web/lib/session-store';
import { fakeBackend, json, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { makeToken, storeSession } from '#web/test/tokens';

describe('routes', () => {
  it('sends / to /todos and, without a token, on to /login', async () => {
    fakeBackend();
    renderApp('/');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it.each(['/todos', '/groups', '/statistics'])('protects %s', async (path) => {
    fakeBackend();
    renderApp(path);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('sends /register to /todos when a token exists', async () => {
    storeSession('alice');
    fakeBackend();
    renderApp('/register');
    await waitFor(() => expect(window.location.pathname).toBe('/todos'));
  });

  it('says when a page does not exist', async () => {
    fakeBackend();
    renderApp('/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});

describe('the navigation bar', () => {
  it('shows Tally, Todos / Stats / Groups, the theme toggle and Logout {name}', async () => {
    storeSession('alice');
    fakeBackend();
    const { user } = renderApp('/todos');
    expect(await screen.findByRole('link', { name: 'Tally' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Todos' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Stats' })).toHaveAttribute('href', '/statistics');
    expect(screen.getByRole('link', { name: 'Groups' })).toHaveAttribute('href', '/groups');
    expect(screen.getByRole('group', { name: 'Theme' })).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Stats' }));
    expect(await screen.findByRole('heading', { name: 'Your Statistics' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Stats' })).toHaveAttribute('aria-current', 'page');
    expect(document.title).toBe('Statistics · Tally');
  });

  it('logs out: revokes the cookie, clears storage and goes to / (and so to /login)', async () => {
    storeSession('alice');
    const { calls } = fakeBackend();
    const { user } = renderApp('/groups');
    await user.click(screen.getByRole('button', { name: 'Logout alice' }));

    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(calls.some((call) => call.path === '/api/auth/logout')).toBe(true);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('username')).toBeNull();
    expect(screen.queryByRole('button', { name: /Logout/ })).not.toBeInTheDocument();
  });
});

describe('forced logout and expiry on screen', () => {
  it('a session ended from another device: /login says the session has ended', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    // The refresh cookie was revoked elsewhere: the expired token cannot be renewed.
    storeSession('alice', -5);
    fakeBackend({}, { 'POST /api/auth/refresh': () => json({ error: 'Invalid token' }, 401) });
    renderApp('/todos');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(
      await screen.findByText(/Your session has ended: it expired or was signed out/),
    ).toBeVisible();
  });

  it('a logout by the person: /login says nothing about an ended session', async () => {
    storeSession('alice');
    fakeBackend();
    const { user } = renderApp('/groups');
    await user.click(await screen.findByRole('button', { name: 'Logout alice' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByText(/Your session has ended/)).not.toBeInTheDocument();
  });

  it('a 401 with a stored token: red notice "Authentication failed (401) - please log in again", then /login', async () => {
    storeSession('alice');
    fakeBackend({}, { 'GET /api/todos': () => json({ error: 'Invalid token' }, 401) });
    renderApp('/todos');

    const notice = await screen.findByText('Authentication failed (401) - please log in again');
    expect(notice.closest('[role="alert"]')).toHaveClass('bg-red-700');
    expect(getSession().token).toBeNull();
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(screen.getByRole('heading', { name: 'Login' })).toBeInTheDocument();
  });

  it('an expired token at start that cannot be renewed: "Session expired on app start"', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    storeSession('alice', -5);
    fakeBackend({ todos: [makeTodo({ id: 1, title: 'Secret' })] });
    renderApp('/todos');

    expect(await screen.findByText('Session expired on app start')).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(screen.queryByText('Secret')).not.toBeInTheDocument();
  });

  it('an expired token at start that renews: the user stays, with their todos', async () => {
    storeSession('alice', -5);
    const { calls } = fakeBackend(
      { todos: [makeTodo({ id: 1, title: 'Still here' })] },
      {
        'POST /api/auth/refresh': () => json({ accessToken: makeToken('alice', 900) }),
      },
    );
    renderApp('/todos');
    expect(await screen.findByRole('checkbox', { name: 'Still here' })).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/api/auth/refresh')).toHaveLength(1);
    expect(window.location.pathname).toBe('/todos');
  });
});
