import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession, loadSessionFromStorage } from '#web/lib/session-store';
import {
  FAKE_GOOGLE_NONCE,
  FAKE_PASSWORD,
  defaultSessions,
  fakeBackend,
  json,
  makeAccount,
} from '#web/test/fake-api';
import { finishGsiScript, gsiScripts, stubGoogleIdentity } from '#web/test/google-identity';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

/** jsdom's Blob has no text(): read it as the browser's FileReader would. */
function readBlob(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!blob) return reject(new Error('Nothing was saved'));
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Unreadable Blob'));
    reader.readAsText(blob);
  });
}

beforeEach(() => {
  storeSession('alice');
  // Failed changes are logged with console.warn before their notice.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

const section = (name: string) => screen.getByRole('region', { name });

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

/** /settings, once the account is loaded. */
async function openSettings() {
  const view = renderApp('/settings');
  await screen.findByRole('heading', { name: 'Settings', level: 1 }, LAZY_LOAD);
  await screen.findByRole('region', { name: 'Account' });
  return view;
}

describe('/settings', () => {
  it('is linked from the navigation bar and shows every section', async () => {
    fakeBackend({ googleClientId: 'tally-test.apps.googleusercontent.com' });
    const { user } = renderApp('/todos');
    const link = screen.getByRole('link', { name: 'Settings' });
    expect(link).toHaveAttribute('href', '/settings');
    expect(link).not.toHaveAttribute('aria-current');

    await user.click(link);
    await screen.findByRole('region', { name: 'Account' }, LAZY_LOAD);
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    expect(document.title).toBe('Settings · Tally');
    for (const name of [
      'Account',
      'Password',
      'Google',
      'Sessions',
      'API tokens',
      'Calendar feed',
      'Your data',
      'Danger zone',
    ]) {
      expect(section(name)).toBeInTheDocument();
    }
    // The navigation's links and Logout stay as they were.
    expect(screen.getByRole('link', { name: 'Todos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout alice' })).toBeInTheDocument();
  }, 20_000);

  it('has a section menu, an address per section, and no Google where it is not set up', async () => {
    fakeBackend();
    const { user } = await openSettings();
    expect(screen.queryByRole('region', { name: 'Google' })).not.toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Settings sections' });
    expect(within(menu).queryByRole('link', { name: 'Google' })).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('link', { name: 'Password' }));
    expect(window.location.pathname).toBe('/settings/password');
    await waitFor(() =>
      expect(
        within(screen.getByRole('navigation', { name: 'Settings sections' })).getByRole('link', {
          name: 'Password',
        }),
      ).toHaveAttribute('aria-current', 'page'),
    );
    expect(section('Password')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Account' })).not.toBeInTheDocument();
  });

  it('is for signed-in users only', async () => {
    window.localStorage.clear();
    loadSessionFromStorage();
    fakeBackend();
    renderApp('/settings');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('shows a failed load with Retry', async () => {
    let fail = true;
    fakeBackend(
      {},
      {
        'GET /api/account': () =>
          fail ? json({ error: 'boom' }, 500) : json(makeAccount({ username: 'alice' })),
      },
    );
    const { user } = renderApp('/settings');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Server error - please try again later',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'Account' })).toBeInTheDocument();
  });
});

describe('/settings, Account', () => {
  it('shows the username and the e-mail address as verified', async () => {
    fakeBackend();
    await openSettings();
    const account = section('Account');
    expect(within(account).getByText('alice')).toBeInTheDocument();
    expect(within(account).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(account).getByText('Verified')).toBeInTheDocument();
    expect(
      within(account).queryByRole('button', { name: 'Resend verification link' }),
    ).not.toBeInTheDocument();
  });

  it('links the admin page for an operator only', async () => {
    fakeBackend({ account: { operator: true } });
    await openSettings();
    expect(screen.getByRole('link', { name: 'Admin page' })).toHaveAttribute('href', '/admin');
  });

  it('shows no admin page link to an account that is not an operator', async () => {
    fakeBackend({ account: { operator: false } });
    await openSettings();
    expect(screen.queryByRole('link', { name: 'Admin page' })).not.toBeInTheDocument();
  });

  it('resends the verification link of an unverified address', async () => {
    const { calls } = fakeBackend({ account: { emailVerified: false } });
    const { user } = await openSettings();
    const account = section('Account');
    expect(within(account).getByText('Not verified')).toBeInTheDocument();

    await user.click(within(account).getByRole('button', { name: 'Resend verification link' }));

    expect(await within(account).findByRole('status')).toHaveTextContent(
      'We sent a new verification link to alice@example.com.',
    );
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/account/verification')).toBe(
      true,
    );
  });

  it('offers no resend when the server sends no e-mail', async () => {
    fakeBackend({ account: { emailVerified: false }, passwordResetByEmail: false });
    await openSettings();
    const account = section('Account');
    expect(within(account).getByText('Not verified')).toBeInTheDocument();
    expect(
      within(account).getByText(/Not verified because this server sends no e-mail/),
    ).toBeVisible();
    expect(
      within(account).queryByRole('button', { name: 'Resend verification link' }),
    ).not.toBeInTheDocument();
  });

  it('changes the e-mail address with the current password; it is then not verified', async () => {
    const { calls } = fakeBackend();
    const { user } = await openSettings();
    const form = screen.getByRole('form', { name: 'Change e-mail' });
    const email = within(form).getByLabelText('New e-mail address');
    expect(email).toBeRequired();
    expect(email).toHaveAttribute('type', 'email');
    expect(within(form).getByLabelText('Current password')).toBeRequired();

    await user.type(email, 'alice@new.example');
    await user.type(within(form).getByLabelText('Current password'), FAKE_PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Change e-mail' }));

    const account = section('Account');
    expect(await within(account).findByRole('status')).toHaveTextContent(
      'Your e-mail address is now alice@new.example. We sent a link to it to verify it.',
    );
    expect(within(account).getByText('alice@new.example')).toBeInTheDocument();
    expect(within(account).getByText('Not verified')).toBeInTheDocument();
    expect(email).toHaveValue('');
    expect(calls.find((c) => c.path === '/api/account/email')).toMatchObject({
      method: 'PUT',
      body: { email: 'alice@new.example', currentPassword: FAKE_PASSWORD },
    });
  });

  it("shows the server's sentence for a wrong password and keeps what was typed", async () => {
    fakeBackend();
    const { user } = await openSettings();
    const form = screen.getByRole('form', { name: 'Change e-mail' });
    await user.type(within(form).getByLabelText('New e-mail address'), 'alice@new.example');
    await user.type(within(form).getByLabelText('Current password'), 'nope');
    await user.click(within(form).getByRole('button', { name: 'Change e-mail' }));

    // Beside the field, as a sentence without the API's field name (docs/product.md, Errors).
    const current = within(form).getByLabelText('Current password');
    await waitFor(() =>
      expect(current).toHaveAccessibleDescription('The current password is not correct.'),
    );
    expect(current).toBeInvalid();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(current, 'x');
    expect(current).not.toBeInvalid();
    expect(current).not.toHaveAccessibleDescription(/not correct/);
    expect(within(form).getByLabelText('New e-mail address')).toHaveValue('alice@new.example');
    expect(within(section('Account')).getByText('alice@example.com')).toBeInTheDocument();
  });

  it('tells an account without a password how to change its address', async () => {
    fakeBackend({ account: { hasPassword: false, googleLinked: true } });
    await openSettings();
    expect(screen.queryByRole('form', { name: 'Change e-mail' })).not.toBeInTheDocument();
    expect(within(section('Account')).getByText(/Set a password first/)).toBeInTheDocument();
  });
});

describe('/settings, after a password reset by e-mail', () => {
  it('says when it was and what it ended', async () => {
    fakeBackend({ account: { passwordResetAt: '2026-11-20T10:00:00.000Z' } });
    await openSettings();
    expect(
      within(section('Account')).getByText(/Your password was reset by e-mail link on/),
    ).toHaveTextContent(
      'signed out every device, revoked every API token and turned the calendar feed off. A linked Google or single sign-on account stayed linked only if the address was verified before',
    );
  });

  it('says nothing without one', async () => {
    fakeBackend();
    await openSettings();
    expect(within(section('Account')).queryByText(/was reset/)).not.toBeInTheDocument();
  });
});

describe('/settings, Password', () => {
  it('changes the password (current + new) and reloads the sessions', async () => {
    const { calls } = fakeBackend();
    const { user } = await openSettings();
    await screen.findByRole('list', { name: 'Signed-in devices' });
    const form = screen.getByRole('form', { name: 'Change password' });
    const newPassword = within(form).getByLabelText('New password');
    expect(newPassword).toHaveAttribute('minLength', '8');
    expect(newPassword).toHaveAttribute('autocomplete', 'new-password');
    expect(newPassword).toHaveAccessibleDescription(/At least 8 characters/);

    await user.type(within(form).getByLabelText('Current password'), FAKE_PASSWORD);
    await user.type(newPassword, 'a brand new password');
    const sessionLoads = calls.filter((c) => c.path === '/api/account/sessions').length;
    await user.click(within(form).getByRole('button', { name: 'Change password' }));

    expect(await within(section('Password')).findByRole('status')).toHaveTextContent(
      'Your password is changed. Every other device was signed out.',
    );
    expect(calls.find((c) => c.path === '/api/account/password')).toMatchObject({
      method: 'PUT',
      body: { currentPassword: FAKE_PASSWORD, newPassword: 'a brand new password' },
    });
    expect(newPassword).toHaveValue('');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/account/sessions').length).toBe(sessionLoads + 1),
    );
    expect(getSession().token).not.toBeNull();
  });

  it('also revokes the API tokens and turns the calendar feed off when the box is ticked', async () => {
    const { calls } = fakeBackend();
    const { user } = await openSettings();
    const form = screen.getByRole('form', { name: 'Change password' });
    const box = within(form).getByRole('checkbox', {
      name: /Also revoke every API token and turn the calendar feed off/,
    });
    expect(box).not.toBeChecked();
    await user.type(within(form).getByLabelText('Current password'), FAKE_PASSWORD);
    await user.type(within(form).getByLabelText('New password'), 'a brand new password');
    await user.click(box);
    await user.click(within(form).getByRole('button', { name: 'Change password' }));

    expect(await within(section('Password')).findByRole('status')).toHaveTextContent(
      'Your password is changed. Every other device was signed out, every API token revoked and the calendar feed turned off.',
    );
    expect(calls.find((c) => c.path === '/api/account/password')?.body).toEqual({
      currentPassword: FAKE_PASSWORD,
      newPassword: 'a brand new password',
      endApiTokensAndFeed: true,
    });
    expect(box).not.toBeChecked();
  });

  it('refuses a wrong current password beside its field, gone once it is edited', async () => {
    fakeBackend();
    const { user } = await openSettings();
    const form = screen.getByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'wrong one');
    await user.type(within(form).getByLabelText('New password'), 'a brand new password');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    // Beside the field, as a sentence without the API's field name (docs/product.md, Errors).
    const current = within(form).getByLabelText('Current password');
    await waitFor(() =>
      expect(current).toHaveAccessibleDescription('The current password is not correct.'),
    );
    expect(current).toBeInvalid();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(current, 'x');
    expect(current).not.toBeInvalid();
    expect(current).not.toHaveAccessibleDescription(/not correct/);
    expect(within(section('Password')).getByRole('status')).toHaveTextContent('');
  });

  it("shows a refused new password's sentence beside the field, not as a notice", async () => {
    const refusal = 'newPassword is too common - choose another';
    fakeBackend({}, { 'PUT /api/account/password': () => json({ error: refusal }, 400) });
    const { user } = await openSettings();
    const form = screen.getByRole('form', { name: 'Change password' });
    const newPassword = within(form).getByLabelText('New password');
    await user.type(within(form).getByLabelText('Current password'), FAKE_PASSWORD);
    await user.type(newPassword, 'iloveyou');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(newPassword).toHaveAccessibleDescription(
        /The new password is too common - choose another\./,
      ),
    );
    expect(newPassword).toBeInvalid();
    expect(newPassword).toHaveValue('iloveyou');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('explains to an account made with Google that "Forgot password?" sets a password', async () => {
    fakeBackend({ account: { hasPassword: false, googleLinked: true } });
    await openSettings();
    const password = section('Password');
    expect(screen.queryByRole('form', { name: 'Change password' })).not.toBeInTheDocument();
    expect(within(password).getByText(/has no password/)).toBeInTheDocument();
    expect(within(password).getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});

describe('/settings, Google', () => {
  const googleClientId = 'tally-test.apps.googleusercontent.com';

  it("links Google with Google's button", async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const gsi = stubGoogleIdentity('link-credential');
    const { calls } = fakeBackend({ googleClientId });
    const { user } = await openSettings();
    const google = section('Google');
    expect(within(google).getByText(/Not linked/)).toBeInTheDocument();
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    finishGsiScript();

    await waitFor(() =>
      expect(gsi.initialize).toHaveBeenCalledWith(
        expect.objectContaining({ nonce: FAKE_GOOGLE_NONCE }),
      ),
    );
    // No One Tap on Settings, where a credential changes the account.
    expect(gsi.prompt).not.toHaveBeenCalled();

    await user.click(within(google).getByRole('button', { name: 'Continue with Google' }));

    expect(await within(google).findByText(/Google is linked/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/account/google')).toMatchObject({
      method: 'POST',
      body: { token: 'link-credential' },
    });
    expect(within(google).getByRole('button', { name: 'Unlink Google' })).toBeInTheDocument();
  });

  it('unlinks Google when the account has a password', async () => {
    const { calls } = fakeBackend({ account: { googleLinked: true } });
    const { user } = await openSettings();
    const google = section('Google');
    expect(within(google).getByText(/linked to a Google account/)).toBeInTheDocument();

    await user.click(within(google).getByRole('button', { name: 'Unlink Google' }));

    expect(await within(google).findByRole('status')).toHaveTextContent('Google is unlinked');
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/account/google')).toBe(true);
    // This server is not set up for Google: once unlinked, the section has nothing to offer.
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Google' })).not.toBeInTheDocument(),
    );
  });

  it('offers no unlink to an account without a password', async () => {
    fakeBackend({ account: { googleLinked: true, hasPassword: false } });
    await openSettings();
    const google = section('Google');
    expect(within(google).queryByRole('button', { name: 'Unlink Google' })).not.toBeInTheDocument();
    expect(within(google).getByText(/cannot be unlinked/)).toBeInTheDocument();
  });
});

describe('/settings, Sessions', () => {
  it('lists the devices in plain words, this one marked, with sign-in and last use', async () => {
    fakeBackend();
    await openSettings();
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Firefox on Windows');
    expect(rows[0]).toHaveTextContent('This device');
    expect(within(rows[0] as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Safari on iPhone');
    expect(rows[1]).not.toHaveTextContent('This device');
    const times = (rows[1] as HTMLElement).querySelectorAll('time');
    expect([...times].map((time) => time.dateTime)).toEqual([
      '2026-02-01T08:00:00.000Z',
      '2026-02-20T18:15:00.000Z',
    ]);
    expect(rows[1]).toHaveTextContent(
      /Signed in Sun,? 1 Feb( 2026)? 08:00Last used Fri,? 20 Feb( 2026)? 18:15/,
    );
  });

  it('ends one session', async () => {
    const { calls } = fakeBackend();
    const { user } = await openSettings();
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });

    await user.click(within(list).getByRole('button', { name: /^End session: Safari on iPhone/ }));

    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(
      '/api/account/sessions/phone-session',
    );
    expect(within(section('Sessions')).getByRole('status')).toHaveTextContent(
      'The session of Safari on iPhone has ended.',
    );
    expect(within(section('Sessions')).getByText('No other device is signed in.')).toBeVisible();
  });

  it('ends all other sessions', async () => {
    const sessions = [
      ...defaultSessions(),
      {
        id: 'third',
        createdAt: '2026-01-05T08:00:00.000Z',
        lastUsedAt: '2026-01-06T08:00:00.000Z',
        userAgent: null,
        current: false,
      },
    ];
    const { calls } = fakeBackend({ sessions });
    const { user } = await openSettings();
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    expect(within(list).getByText('Unknown device')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'End all other sessions' }));

    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list).getByText('This device')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/account/sessions')).toBe(
      true,
    );
    expect(within(section('Sessions')).getByRole('status')).toHaveTextContent(
      'Every other session has ended.',
    );
  });

  it('shows a failed list with Retry', async () => {
    // The list's call answers 200 or 401 (contract); a server failure is what can go wrong.
    fakeBackend({}, { 'GET /api/account/sessions': () => json({ error: 'Nope' }, 500) });
    await openSettings();
    expect(await within(section('Sessions')).findByRole('alert')).toHaveTextContent(
      'Server error - please try again later',
    );
    expect(within(section('Sessions')).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

describe('/settings, Your data', () => {
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  afterEach(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });

  it('downloads the export as tally-export-YYYY-MM-DD.json', async () => {
    let saved: Blob | undefined;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:tally/export';
    });
    URL.revokeObjectURL = vi.fn();
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    const { calls } = fakeBackend();
    const { user } = await openSettings();

    await user.click(screen.getByRole('button', { name: 'Export my data' }));

    expect(await within(section('Your data')).findByRole('status')).toHaveTextContent(
      'Your data is saved as tally-export-2026-03-04.json.',
    );
    expect(downloads).toEqual(['tally-export-2026-03-04.json']);
    const exported = JSON.parse(await readBlob(saved)) as { version: number };
    expect(exported.version).toBe(4);
    const call = calls.find((c) => c.path === '/api/account/export');
    expect(call?.headers.get('Authorization')).toMatch(/^Bearer /);
  });
});

describe('/settings, Danger zone', () => {
  it('deletes the account after the username is typed and the password given, then signs out', async () => {
    const { calls, state } = fakeBackend();
    const { user } = await openSettings();
    const form = screen.getByRole('form', { name: 'Delete account' });
    const button = within(form).getByRole('button', { name: 'Delete my account' });
    expect(button).toBeDisabled();
    const username = within(form).getByLabelText('Username');
    expect(username).toHaveAccessibleDescription('Type your username, alice, to confirm.');

    await user.type(username, 'alic');
    expect(button).toBeDisabled();
    await user.type(username, 'e');
    expect(button).toBeEnabled();
    const password = within(form).getByLabelText('Password');
    await user.type(password, 'wrong');
    await user.click(button);
    // Beside the field, in words (docs/product.md, Errors); no notice besides.
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription('The password is not correct.'),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(state.deleted).toBe(false);

    await user.clear(password);
    expect(password).not.toHaveAccessibleDescription();
    await user.type(within(form).getByLabelText('Password'), FAKE_PASSWORD);
    await user.click(button);

    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(state.deleted).toBe(true);
    expect(calls.filter((c) => c.path === '/api/account').at(-1)).toMatchObject({
      method: 'DELETE',
      body: { password: FAKE_PASSWORD },
    });
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(true);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(getSession().token).toBeNull();
    expect(screen.getByText('Your account is deleted')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Logout/ })).not.toBeInTheDocument();
  });

  it('asks an account without a password to sign in with Google again', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    stubGoogleIdentity('fresh-credential');
    const { calls } = fakeBackend({
      googleClientId: 'tally-test.apps.googleusercontent.com',
      account: { hasPassword: false, googleLinked: true },
    });
    const { user } = await openSettings();
    const form = screen.getByRole('form', { name: 'Delete account' });
    expect(within(form).queryByLabelText('Password')).not.toBeInTheDocument();
    expect(within(form).queryByRole('button', { name: /Google/ })).not.toBeInTheDocument();

    await user.type(within(form).getByLabelText('Username'), 'alice');
    await waitFor(() => expect(gsiScripts()).toHaveLength(1));
    finishGsiScript();
    await user.click(within(form).getByRole('button', { name: 'Continue with Google' }));

    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(calls.find((c) => c.method === 'DELETE' && c.path === '/api/account')?.body).toEqual({
      googleToken: 'fresh-credential',
    });
  });
});
