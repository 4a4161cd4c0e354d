import { accountApi, authApi, todosApi } from '@tally/contract';
import { afterAll, beforeAll, expect } from 'vitest';
import { apiClient } from './api-client.js';
import {
  createTestApp,
  refreshCookieOf,
  registerUser,
  type TestContext,
  type TestUser,
} from './helpers.js';
import { type LocalSmtp, startLocalSmtp } from './local-smtp.js';

/**
 * The app the account tests call, sending its mail to a real SMTP server on loopback, made before
 * the file's tests and closed after them; with the calls those tests share.
 */
export function useAccountApp() {
  const state: { ctx: TestContext; smtp: LocalSmtp } = {} as {
    ctx: TestContext;
    smtp: LocalSmtp;
  };
  beforeAll(async () => {
    state.smtp = await startLocalSmtp();
    state.ctx = await createTestApp({
      config: {
        smtpUrl: state.smtp.url,
        mailFrom: 'Tally <tally@example.com>',
        publicUrl: 'https://tally.example.com',
      },
    });
  });
  afterAll(async () => {
    await state.ctx.close();
    await state.smtp.close();
  });

  /** A second session of the user, on another device. */
  const login = async (user: TestUser) => {
    const response = await apiClient(state.ctx.app, null)(authApi.login, {
      body: { username: user.username, password: user.password },
      headers: { 'user-agent': 'Second device' },
    });
    expect(response.statusCode).toBe(200);
    return {
      token: response.json<{ accessToken: string }>().accessToken,
      cookie: refreshCookieOf(response),
    };
  };
  const todos = (user: { token: string }) => apiClient(state.ctx.app, user)(todosApi.list);
  const account = async (user: { token: string }) =>
    (await apiClient(state.ctx.app, user)(accountApi.get)).json<{
      email: string;
      emailVerified: boolean;
    }>();
  /** A new user whose registration mail has arrived (and is out of the way). */
  async function newUser(): Promise<TestUser> {
    const user = await registerUser(state.ctx.app);
    await state.smtp.take(user.email);
    return user;
  }

  return {
    get ctx() {
      return state.ctx;
    },
    get smtp() {
      return state.smtp;
    },
    login,
    todos,
    account,
    newUser,
  };
}
