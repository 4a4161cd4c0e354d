import { accountApi } from '@tally/contract';
import { describe, expect, it } from 'vitest';
import { useAccountApp } from '../test/account-app.js';
import { apiClient } from '../test/api-client.js';

/**
 * The signed-in account as GET /api/account describes it (docs/product.md, Accounts).
 */

const app = useAccountApp();
const { newUser } = app;

describe('GET /api/account', () => {
  it('describes the signed-in account, without secrets', async () => {
    const user = await newUser();
    const response = await apiClient(app.ctx.app, user)(accountApi.get);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      username: user.username,
      email: user.email,
      emailVerified: false,
      hasPassword: true,
      googleLinked: false,
      oidcLinked: false,
      createdAt: new Date(app.ctx.clock.now()).toISOString(),
      // Registered without an x-time-zone header: no zone to adopt.
      timeZone: null,
      language: null,
      weekStart: null,
      // The first account of the database: its operator.
      operator: true,
    });
  });

  it('needs a bearer token', async () => {
    const response = await apiClient(app.ctx.app, null)(accountApi.get);
    expect(response.statusCode).toBe(401);
  });
});
