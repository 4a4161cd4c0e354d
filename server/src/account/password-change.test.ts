import { accountApi, authApi } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { useAccountApp } from '../test/account-app.js';
import { apiClient } from '../test/api-client.js';

/**
 * A change of password in Settings: what it needs, and which other access it ends.
 */

const app = useAccountApp();
const { login, todos, newUser } = app;

describe('PUT /api/account/password', () => {
  const change = (user: { token: string }, body: object) =>
    apiClient(app.ctx.app, user).unchecked(accountApi.changePassword, { body });

  it('changes the password and ends every other session at once, keeping this one', async () => {
    const user = await newUser();
    const other = await login(user);
    const response = await change(user, {
      currentPassword: user.password,
      newPassword: 'a new password 42',
    });
    expect(response.statusCode).toBe(204);
    expect((await todos(user)).statusCode).toBe(200);
    expect((await todos(other)).statusCode).toBe(401);
    const refresh = await apiClient(app.ctx.app, null)(authApi.refresh, {
      headers: { cookie: other.cookie },
    });
    expect(refresh.statusCode).toBe(401);

    const old = await apiClient(app.ctx.app, null)(authApi.login, {
      body: { username: user.username, password: user.password },
    });
    expect(old.statusCode).toBe(401);
    const fresh = await apiClient(app.ctx.app, null)(authApi.login, {
      body: { username: user.username, password: 'a new password 42' },
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('refuses a wrong current password with a 400 naming it (a 401 would end the browser session)', async () => {
    const user = await newUser();
    const response = await change(user, { currentPassword: 'wrong!', newPassword: 'whatever 123' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'currentPassword is not correct' });
    expect((await todos(user)).statusCode).toBe(200);
  });

  it('refuses a common new password with a 400 naming newPassword, keeping the old one', async () => {
    const user = await newUser();
    const response = await change(user, {
      currentPassword: user.password,
      newPassword: 'iloveyou',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'newPassword is too common - choose another' });
    expect((await todos(user)).statusCode).toBe(200);
    expect((await login(user)).token).toBeTruthy();
  });

  it('refuses a new password built on the username or the name Tally, keeping the old one', async () => {
    const user = await newUser();
    for (const newPassword of ['tallytally', `${user.username}!!`]) {
      const response = await change(user, { currentPassword: user.password, newPassword });
      expect(response.statusCode, newPassword).toBe(400);
      expect(response.json()).toEqual({
        error:
          'newPassword is built on your username, your e-mail address or the name Tally - choose another',
      });
    }
    expect((await login(user)).token).toBeTruthy();
  });

  it('validates the new password like registration', async () => {
    const user = await newUser();
    const response = await change(user, { currentPassword: user.password, newPassword: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toMatch(/newPassword/);
  });

  it('allows 10 wrong passwords per 15 minutes, then answers 429', async () => {
    const user = await newUser();
    for (let i = 0; i < 10; i++) {
      const wrong = await change(user, {
        currentPassword: `wrong ${i}`,
        newPassword: 'an uncommon 9',
      });
      expect(wrong.statusCode).toBe(400);
    }
    const limited = await change(user, {
      currentPassword: user.password,
      newPassword: 'an uncommon 9',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ error: string }>().error).toMatch(/^Too many wrong passwords/);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
