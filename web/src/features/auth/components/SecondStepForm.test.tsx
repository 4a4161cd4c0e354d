import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { makeToken } from '#web/test/tokens';

/** The login's second step (docs/product.md, Login screen; docs/decisions/081-two-factor-codes.md). */

const MFA_TOKEN = 'mfa-token-123';

function twoFactorBackend() {
  return fakeBackend(
    {},
    {
      'POST /api/auth/login': () =>
        json({ mfaRequired: true, mfaToken: MFA_TOKEN, methods: ['totp', 'recovery'] }),
      'POST /api/auth/mfa': (call) => {
        const { code } = call.body as { code: string };
        if (code === '123456' || code === 'abcde-fghjk') {
          return json({ accessToken: makeToken('alice') });
        }
        return json({ error: 'The code is not correct' }, 401);
      },
    },
  );
}

async function passwordStep(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Username'), 'alice');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('/login, second step', () => {
  it('asks for the app code after the password, shows a refusal beside the field, then signs in', async () => {
    const { calls } = twoFactorBackend();
    const { user } = renderApp('/login');
    await passwordStep(user);

    expect(await screen.findByRole('heading', { name: 'Two-factor code' })).toBeInTheDocument();
    const code = await screen.findByLabelText('Code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveFocus();

    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is not correct')).toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toHaveAccessibleDescription('The code is not correct');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Code'));
    await user.type(screen.getByLabelText('Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/api/auth/mfa').at(-1)?.body).toEqual({
      mfaToken: MFA_TOKEN,
      code: '123456',
    });
  });

  it('takes a recovery code after "Use a recovery code", and "Start over" returns to the password', async () => {
    twoFactorBackend();
    const { user } = renderApp('/login');
    await passwordStep(user);
    await user.click(await screen.findByRole('button', { name: 'Start over' }));
    expect(screen.getByRole('heading', { name: 'Login' })).toBeInTheDocument();

    await passwordStep(user);
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(await screen.findByLabelText('Recovery code'), 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
  });

  it('opens from /login#mfa=<token> and takes the token out of the address', async () => {
    const { calls } = twoFactorBackend();
    const { user } = renderApp(`/login#mfa=${'x'.repeat(43)}`);
    expect(await screen.findByRole('heading', { name: 'Two-factor code' })).toBeInTheDocument();
    expect(window.location.hash).toBe('');
    await user.type(screen.getByLabelText('Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/api/auth/mfa')?.body).toMatchObject({
      mfaToken: 'x'.repeat(43),
    });
  });
});
