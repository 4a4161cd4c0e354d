import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FAKE_PASSWORD, fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { makeToken } from '#web/test/tokens';
import { getSession } from '#web/lib/session-store';

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

describe('an account the operator made with a one-time password', () => {
  it('chooses a new password before anything else, then goes on to /todos', async () => {
    const { calls } = fakeBackend(
      {},
      {
        'POST /api/auth/login': () =>
          json({ accessToken: makeToken('newbie'), passwordChangeRequired: true }),
      },
    );
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Username'), 'newbie');
    await user.type(screen.getByLabelText('Password'), FAKE_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Login' }));

    const form = await screen.findByRole('form', { name: 'Choose a new password' }, LAZY_LOAD);
    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    expect(document.title).toBe('Choose a new password · Tally');
    expect(calls.some((c) => c.path === '/api/todos')).toBe(false);

    await user.type(within(form).getByLabelText('Password you were given'), FAKE_PASSWORD);
    await user.type(within(form).getByLabelText('New password'), 'mine and only mine');
    await user.type(within(form).getByLabelText('Repeat new password'), 'mine and only mine');
    await user.click(within(form).getByRole('button', { name: 'Save new password' }));

    expect(await screen.findByRole('heading', { name: 'Todos' }, LAZY_LOAD)).toBeVisible();
    expect(getSession().passwordChangeRequired).toBe(false);
    expect(calls.find((c) => c.path === '/api/account/password')?.body).toEqual({
      currentPassword: FAKE_PASSWORD,
      newPassword: 'mine and only mine',
    });
  }, 20_000);
});
