import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSession } from '#web/lib/session-store';
import { expectConsoleError } from '#web/test/console-guard';
import { fakeBackend, json, networkFailure } from '#web/test/fake-api';
import {
  failGsiScript,
  finishGsiScript,
  gsiScripts,
  stubGoogleIdentity,
} from '#web/test/google-identity';
import { renderApp } from '#web/test/render';
import { makeToken, storeSession } from '#web/test/tokens';

describe('/login', () => {
  it('has a required username and password, the Google button, an "or" divider and a register link', async () => {
    fakeBackend();
    renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Login' })).toHaveAttribute('type', 'submit');
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(await screen.findByText('Google sign-in is not configured')).toBeInTheDocument();
  });

  it('shows "Logging in..." while waiting, then stores the token and goes to /todos', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { calls } = fakeBackend(
      {},
      {
        'POST /api/auth/login': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    );
    const { user } = renderApp('/login');

    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('button', { name: 'Logging in...' })).toBeDisabled();
    expect(calls.find((call) => call.path === '/api/auth/login')?.body).toEqual({
      username: 'alice',
      password: 'correct horse',
    });

    answer(json({ accessToken: makeToken('alice') }));

    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/todos');
    expect(window.localStorage.getItem('username')).toBe('alice');
    expect(window.localStorage.getItem('token')).toBe(getSession().token);
    expect(screen.getByRole('button', { name: 'Logout alice' })).toBeInTheDocument();
  });

  it("shows the server's sentence in the error banner, and a fresh visit starts without it", async () => {
    fakeBackend();
    const { user, unmount } = renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
    expect(getSession().token).toBeNull();

    unmount();
    renderApp('/login');
    expect(screen.queryByText('Invalid username or password')).not.toBeInTheDocument();
  });

  it('says "Network error - check your connection" when the server cannot be reached', async () => {
    fakeBackend({}, { 'POST /api/auth/login': networkFailure });
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Network error - check your connection',
    );
  });

  it('refuses a token it cannot read: "Invalid token received from server"', async () => {
    fakeBackend({}, { 'POST /api/auth/login': () => json({ accessToken: 'garbage' }) });
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid token received from server',
    );
    expect(getSession().token).toBeNull();
  });

  it('redirects to /todos when a token exists', async () => {
    storeSession('alice');
    fakeBackend();
    renderApp('/login');
    await waitFor(() => expect(window.location.pathname).toBe('/todos'));
  });
});

describe('/login with Google', () => {
  const googleClientId = 'tally-test.apps.googleusercontent.com';

  /** /login with Google configured and its script loaded (the stubbed third party). */
  async function openWithGoogle(credential?: string) {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const google = stubGoogleIdentity(credential);
    const view = renderApp('/login');
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    finishGsiScript();
    return { google, ...view };
  }

  it("sends Google's credential to POST /api/auth/google and signs in like a password login", async () => {
    let answer: (response: Response) => void = () => undefined;
    const { calls } = fakeBackend(
      { googleClientId },
      {
        'POST /api/auth/google': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    );
    const { user } = await openWithGoogle('the-id-token');

    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Signing in with Google...');
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    const call = calls.find((c) => c.path === '/api/auth/google');
    expect(call?.method).toBe('POST');
    expect(call?.body).toEqual({ token: 'the-id-token' });
    expect(call?.headers.has('Authorization')).toBe(false);

    answer(json({ accessToken: makeToken('someone') }));

    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/todos');
    expect(window.localStorage.getItem('username')).toBe('someone');
    expect(window.localStorage.getItem('token')).toBe(getSession().token);
    expect(screen.getByRole('button', { name: 'Logout someone' })).toBeInTheDocument();
  });

  it('sets Google up again with the new nonce after a refused attempt', async () => {
    let nonces = 0;
    fakeBackend(
      { googleClientId },
      {
        'GET /api/auth/google/nonce': () => json({ nonce: `nonce-${++nonces}` }),
        'POST /api/auth/google': () => json({ error: 'Google sign-in failed: no' }, 401),
      },
    );
    const { google, user } = await openWithGoogle();
    await waitFor(() =>
      expect(google.initialize).toHaveBeenLastCalledWith(
        expect.objectContaining({ nonce: 'nonce-1' }),
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Google sign-in failed: no');
    expectConsoleError(/^Google login failed/);
    await waitFor(() =>
      expect(google.initialize).toHaveBeenLastCalledWith(
        expect.objectContaining({ nonce: 'nonce-2' }),
      ),
    );
    expect(google.initialize).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });

  it('signs in from One Tap too', async () => {
    fakeBackend(
      { googleClientId },
      { 'POST /api/auth/google': () => json({ accessToken: makeToken('tapper') }) },
    );
    const { google } = await openWithGoogle();
    expect(google.prompt).toHaveBeenCalled();
    google.oneTap('one-tap-token');
    expect(await screen.findByRole('button', { name: 'Logout tapper' })).toBeInTheDocument();
  });

  it('shows a refused credential in the error banner, logs it, and stays on /login', async () => {
    const refusal = 'Google sign-in failed: the credential is not valid';
    const { calls } = fakeBackend(
      { googleClientId },
      { 'POST /api/auth/google': () => json({ error: refusal }, 401) },
    );
    const { user } = await openWithGoogle();

    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expectConsoleError(/^Google login failed/);
    expect(window.location.pathname).toBe('/login');
    // The attempt spent the nonce cookie: a new nonce is asked for.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/auth/google/nonce')).toHaveLength(2),
    );
    expect(getSession().token).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();

    // A password login afterwards starts without the Google message.
    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
    expect(screen.queryByText(refusal)).not.toBeInTheDocument();
  });

  it('shows a Google response without a credential in the banner, dismissibly', async () => {
    const { calls } = fakeBackend({ googleClientId });
    const { google, user } = await openWithGoogle();

    google.oneTap(undefined);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Google sign-in failed - please try again',
    );
    expectConsoleError(/^Google login failed/);
    expect(calls.some((c) => c.path === '/api/auth/google')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("keeps the password form working when Google's script cannot load", async () => {
    fakeBackend({ googleClientId });
    const { user } = renderApp('/login');
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    failGsiScript();
    expectConsoleError(/^Google SDK failed to load$/);
    expect(screen.getByText('Google sign-in could not be loaded')).toBeInTheDocument();

    await user.type(await screen.findByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('button', { name: 'Logout alice' })).toBeInTheDocument();
  });
});

describe('/register', () => {
  it('has required username, email (type email) and password, and a link to login', async () => {
    fakeBackend();
    renderApp('/register');
    expect(await screen.findByLabelText('Username')).toBeRequired();
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });

  it('shows "Creating account..." while waiting and signs the new user in', async () => {
    let answer: (response: Response) => void = () => undefined;
    fakeBackend(
      {},
      {
        'POST /api/auth/register': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      },
    );
    const { user } = renderApp('/register');
    await user.type(await screen.findByLabelText('Username'), 'bob');
    await user.type(screen.getByLabelText('Email'), 'bob@example.com');
    await user.type(screen.getByLabelText('Password'), 'long enough password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('button', { name: 'Creating account...' })).toBeDisabled();
    answer(json({ accessToken: makeToken('bob') }, 201));
    expect(await screen.findByRole('button', { name: 'Logout bob' })).toBeInTheDocument();
  });

  it('says sign-up is closed and hides the form when the server takes no new accounts', async () => {
    fakeBackend({ registration: 'closed' });
    renderApp('/register');
    expect(await screen.findByText(/Sign-up is closed on this server/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Register' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Register' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Username')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });

  it.each([
    ['iloveyou', 'is too common - choose another'],
    [
      'bobbob123',
      'is built on your username, your e-mail address or the name Tally - choose another',
    ],
  ])("shows a refused password's sentence beside the password field (%s)", async (typed, why) => {
    fakeBackend({}, { 'POST /api/auth/register': () => json({ error: `password ${why}` }, 400) });
    const { user } = renderApp('/register');
    await user.type(await screen.findByLabelText('Username'), 'bob');
    await user.type(screen.getByLabelText('Email'), 'bob@example.com');
    const password = await screen.findByLabelText('Password');
    await user.type(password, typed);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(`The password ${why}.`));
    expect(password).toBeInvalid();
    expect(password).toHaveValue(typed);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a 409 as the server says it', async () => {
    fakeBackend();
    const { user } = renderApp('/register');
    await user.type(await screen.findByLabelText('Username'), 'taken');
    await user.type(screen.getByLabelText('Email'), 'x@example.com');
    await user.type(screen.getByLabelText('Password'), 'long enough password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Username is already taken');
  });
});
