import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { makeToken } from '#web/test/tokens';

describe('/register with a setup token', () => {
  it('asks for the setup token while the server says so, even with sign-up closed', async () => {
    const { calls } = fakeBackend(
      { registration: 'closed', setupTokenRequired: true },
      {
        'POST /api/auth/register': (call) =>
          (call.body as { setupToken?: string }).setupToken === 'right-token'
            ? json({ accessToken: makeToken('operator') }, 201)
            : json({ error: "setupToken is not this server's setup token" }, 403),
      },
    );
    const { user } = renderApp('/register');

    const token = await screen.findByLabelText('Setup token');
    expect(token).toBeRequired();
    expect(token).toHaveAttribute('type', 'password');
    await user.type(screen.getByLabelText('Username'), 'operator');
    await user.type(screen.getByLabelText('Email'), 'operator@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.type(token, 'wrong-token');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(
      await screen.findByText("The setup token is not this server's setup token."),
    ).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.clear(token);
    await user.type(token, 'right-token');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Todos' })).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/api/auth/register').at(-1)?.body).toEqual({
      username: 'operator',
      email: 'operator@example.com',
      password: 'correct horse battery',
      setupToken: 'right-token',
    });
  });

  it('shows no setup token field once the server has its first account', async () => {
    fakeBackend({ setupTokenRequired: false });
    renderApp('/register');
    expect(await screen.findByLabelText('Password')).toBeRequired();
    expect(screen.queryByLabelText('Setup token')).not.toBeInTheDocument();
  });
});
