import { accountApi, authApi, GROUP_COLORS, groupsApi, LIMITS, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';

/**
 * Error answers keep their English sentence for clients that know only SPEC.md and carry beside
 * it a stable `code` (and the `field` and `limit` it concerns) that a client words itself
 * (docs/decisions/178-error-codes.md).
 */

let ctx: TestContext;
let alice: TestUser;

beforeAll(async () => {
  ctx = await createTestApp();
  alice = await registerUser(ctx.app);
});
afterAll(() => ctx.close());

describe('error codes', () => {
  it('names the field and the length broken when a password is too short', async () => {
    const response = await apiClient(ctx.app, alice)(accountApi.changePassword, {
      body: { currentPassword: alice.password, newPassword: 'short' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: `newPassword must be at least ${LIMITS.passwordMin} characters`,
      code: 'too_short',
      field: 'newPassword',
      limit: LIMITS.passwordMin,
    });
  });

  it('says which field is missing, and which is unknown', async () => {
    const api = apiClient(ctx.app, alice);
    const missing = await api.unchecked(groupsApi.create, { body: { color: GROUP_COLORS[0] } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'name is required', code: 'required', field: 'name' });

    const unknown = await api.unchecked(todosApi.create, { body: { title: 'x', colour: 'red' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'unknown_field', field: 'body' });
    expect(unknown.json<{ error: string }>().error).toMatch(/^body has an unknown field "colour"/);
  });

  it('codes a blank name as empty and a wrong e-mail address as such', async () => {
    const blank = await apiClient(ctx.app, alice)(todosApi.create, { body: { title: '   ' } });
    expect(blank.json()).toEqual({
      error: 'title must not be empty',
      code: 'empty',
      field: 'title',
    });

    const register = await apiClient(ctx.app, null)(authApi.register, {
      body: { username: 'coded-user', email: 'not an address', password: 'long enough 1' },
    });
    expect(register.json()).toEqual({
      error: 'email must be a valid e-mail address',
      code: 'invalid_email',
      field: 'email',
    });
  });

  it('codes what is not found, and a body that is not JSON', async () => {
    const api = apiClient(ctx.app, alice);
    const gone = await api(todosApi.get, { params: { id: 999_999 } });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'Todo not found', code: 'not_found' });

    const garbled = await api.unchecked(todosApi.create, {
      body: '{"title": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json()).toEqual({
      error: 'The request body is not valid JSON',
      code: 'invalid_json',
    });
  });

  it('keeps the sentence alone where it has no one meaning to word', async () => {
    const home = { name: 'Home', color: GROUP_COLORS[0] };
    const taken = await apiClient(ctx.app, alice)(groupsApi.create, { body: home });
    expect(taken.statusCode).toBe(201);
    const again = await apiClient(ctx.app, alice)(groupsApi.create, { body: home });
    expect(again.statusCode).toBe(409);
    expect(Object.keys(again.json())).toEqual(['error']);
  });
});
