import { msg } from '@lingui/core/macro';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, ERROR_MESSAGES } from './api-client';
import { activateLanguage } from './i18n';
import { getNotices } from './notices';
import { setIdentityPrompt } from './reauthentication';
import { getSession } from './session-store';
import { json, makeTodo, networkFailure, noContent, stubFetch } from '#web/test/fake-api';
import { makeToken, storeSession } from '#web/test/tokens';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('Expected the request to fail');
}

describe('api-client: requests', () => {
  it('sends JSON, the time zone and same-origin credentials, and the bearer token', async () => {
    const token = storeSession('alice');
    const created = makeTodo({ id: 1, title: 'x' });
    const { calls } = stubFetch({ 'POST /api/todos': () => json(created, 201) });

    await expect(
      apiRequest('/api/todos', {
        method: 'POST',
        body: { title: 'x' },
        operation: msg`Create todo failed`,
      }),
    ).resolves.toEqual(created);

    const [call] = calls;
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    expect(call?.headers.get('x-time-zone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(call?.credentials).toBe('same-origin');
    expect(call?.body).toEqual({ title: 'x' });
  });

  it('never sends the bearer token on /api/auth/ paths', async () => {
    storeSession('alice');
    const { calls } = stubFetch({ 'POST /api/auth/login': () => json({ accessToken: 'x' }) });
    await apiRequest('/api/auth/login', { method: 'POST', body: {}, operation: msg`Login failed` });
    expect(calls[0]?.headers.has('Authorization')).toBe(false);
    expect(calls[0]?.headers.has('x-time-zone')).toBe(true);
  });

  it('answers undefined for 204 No Content', async () => {
    storeSession('alice');
    stubFetch({ 'DELETE /api/todos/:id': () => noContent() });
    await expect(
      apiRequest('/api/todos/3', { method: 'DELETE', operation: msg`Delete todo failed` }),
    ).resolves.toBeUndefined();
  });
});

describe('api-client: the error catalogue (docs/product.md, Errors)', () => {
  beforeEach(() => {
    storeSession('alice');
  });

  it.each([500, 502, 503])(
    'status %i → "Server error - please try again later"',
    async (status) => {
      stubFetch({ 'GET /api/todos': () => json({ error: 'database exploded' }, status) });
      const error = await failure(apiRequest('/api/todos', { operation: msg`Load todos failed` }));
      expect(error.message).toBe('Server error - please try again later');
      expect(error.status).toBe(status);
    },
  );

  it('no response at all → "Network error - check your connection"', async () => {
    stubFetch({ 'GET /api/todos': networkFailure });
    const error = await failure(apiRequest('/api/todos', { operation: msg`Load todos failed` }));
    expect(error.message).toBe('Network error - check your connection');
    expect(error.status).toBeNull();
  });

  it("other 4xx → the body's error field", async () => {
    stubFetch({ 'POST /api/todos': () => json({ error: 'title must not be blank' }, 400) });
    const error = await failure(
      apiRequest('/api/todos', { method: 'POST', body: {}, operation: msg`Create todo failed` }),
    );
    expect(error.message).toBe('title must not be blank');
    expect(error.status).toBe(400);
  });

  it('other 4xx without an error field → "{operation} failed"', async () => {
    stubFetch({
      'PUT /api/todos/:id': () => new Response('<html>nope</html>', { status: 404 }),
      // Not the server's answer (which always says {error}): a proxy's, sent as it is.
      'DELETE /api/todos/:id': () =>
        new Response(JSON.stringify({ message: 'other shape' }), {
          status: 409,
          headers: { 'Content-Type': 'application/json' },
        }),
    });
    expect(
      (
        await failure(
          apiRequest('/api/todos/9', {
            method: 'PUT',
            body: {},
            operation: msg`Update todo failed`,
          }),
        )
      ).message,
    ).toBe('Update todo failed');
    expect(
      (
        await failure(
          apiRequest('/api/todos/9', { method: 'DELETE', operation: msg`Delete todo failed` }),
        )
      ).message,
    ).toBe('Delete todo failed');
  });

  it('401/403 on an auth path goes to the form and logs no one out', async () => {
    stubFetch({
      'POST /api/auth/login': () => json({ error: 'Invalid username or password' }, 401),
    });
    const error = await failure(
      apiRequest('/api/auth/login', { method: 'POST', body: {}, operation: msg`Login failed` }),
    );
    expect(error.message).toBe('Invalid username or password');
    expect(error.handled).toBe(false);
    expect(getSession().token).not.toBeNull();
    expect(getNotices()).toEqual([]);
  });
});

describe('api-client: 401/403 with a stored token (forced logout)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([401, 403])(
    '%i (that no renewal can mend) logs out, shows the red notice for 3 s, /login after 100 ms',
    async (status) => {
      vi.useFakeTimers();
      window.history.replaceState(null, '', '/todos');
      storeSession('alice');
      const { calls } = stubFetch({
        'GET /api/todos': () => json({ error: 'Invalid token' }, status),
        'POST /api/auth/refresh': () => json({ error: 'No session' }, 401),
        'POST /api/auth/logout': () => noContent(),
      });

      const error = await failure(apiRequest('/api/todos', { operation: msg`Load todos failed` }));

      const message = `Authentication failed (${status}) - please log in again`;
      expect(error.message).toBe(message);
      expect(error.handled).toBe(true);
      expect(getSession()).toMatchObject({ token: null, user: null, isAuthenticated: false });
      expect(window.localStorage.getItem('token')).toBeNull();
      expect(window.localStorage.getItem('username')).toBeNull();
      expect(getNotices().map((notice) => [notice.tone, notice.text])).toEqual([
        ['error', message],
      ]);
      expect(calls.map((call) => `${call.method} ${call.path}`)).toContain('POST /api/auth/logout');

      await vi.advanceTimersByTimeAsync(99);
      expect(window.location.pathname).toBe('/todos');
      await vi.advanceTimersByTimeAsync(1);
      expect(window.location.pathname).toBe('/login');

      await vi.advanceTimersByTimeAsync(2899);
      expect(getNotices()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(getNotices()).toEqual([]);
    },
  );

  it('a 401 first tries one silent renewal and retries the call with the new token', async () => {
    storeSession('alice');
    const fresh = makeToken('alice', 900);
    const { calls } = stubFetch({
      'GET /api/todos': (call) =>
        call.headers.get('Authorization') === `Bearer ${fresh}`
          ? json([])
          : json({ error: 'Invalid token' }, 401),
      'POST /api/auth/refresh': () => json({ accessToken: fresh }),
    });
    await expect(apiRequest('/api/todos', { operation: msg`Load todos failed` })).resolves.toEqual(
      [],
    );
    expect(calls.map((call) => call.path)).toEqual([
      '/api/todos',
      '/api/auth/refresh',
      '/api/todos',
    ]);
    expect(getSession().token).toBe(fresh);
    expect(getNotices()).toEqual([]);
  });

  it('a 401 again after a renewal logs out (no endless loop)', async () => {
    window.history.replaceState(null, '', '/todos');
    storeSession('alice');
    const { calls } = stubFetch({
      'GET /api/todos': () => json({ error: 'Invalid token' }, 401),
      'POST /api/auth/refresh': () => json({ accessToken: makeToken('alice', 900) }),
      'POST /api/auth/logout': () => noContent(),
    });
    const error = await failure(apiRequest('/api/todos', { operation: msg`Load todos failed` }));
    expect(error.message).toBe('Authentication failed (401) - please log in again');
    expect(calls.filter((call) => call.path === '/api/todos')).toHaveLength(2);
    expect(getSession().token).toBeNull();
  });

  it('a 403 logs out at once, without trying a renewal', async () => {
    storeSession('alice');
    const { calls } = stubFetch({
      'GET /api/todos': () => json({ error: 'Forbidden' }, 403),
      'POST /api/auth/logout': () => noContent(),
    });
    await failure(apiRequest('/api/todos', { operation: msg`Load todos failed` }));
    expect(calls.some((call) => call.path === '/api/auth/refresh')).toBe(false);
    expect(getSession().token).toBeNull();
  });

  it('a 403 reauthentication_required asks the registered prompt, then sends the call again once', async () => {
    storeSession('alice');
    const made = {
      id: 7,
      name: 'Script',
      scope: 'read' as const,
      createdAt: '2026-03-01T12:00:00.000Z',
      lastUsedAt: null,
      expiresAt: null,
      token: 'tly_secret',
    };
    let answers = 0;
    const { calls } = stubFetch({
      'POST /api/account/tokens': () =>
        ++answers === 1
          ? json({ error: 'Confirm it is you', code: 'reauthentication_required' }, 403)
          : json(made, 201),
    });
    const prompt = vi.fn(() => Promise.resolve(true));
    const remove = setIdentityPrompt(prompt);
    try {
      await expect(
        apiRequest('/api/account/tokens', {
          method: 'POST',
          body: {},
          operation: msg`Create API token failed`,
        }),
      ).resolves.toEqual(made);
    } finally {
      remove();
    }
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(calls.filter((call) => call.path === '/api/account/tokens')).toHaveLength(2);
    expect(getSession().token).not.toBeNull();
  });

  it('a 403 reauthentication_required without a prompt, or cancelled, is the sentence and no logout', async () => {
    storeSession('alice');
    stubFetch({
      'POST /api/account/calendar': () =>
        json({ error: 'Confirm it is you', code: 'reauthentication_required' }, 403),
    });
    const call = () =>
      apiRequest('/api/account/calendar', {
        method: 'POST',
        operation: msg`Make calendar feed failed`,
      });
    const bare = await failure(call());
    expect(bare).toMatchObject({ message: 'Confirm it is you', code: 'reauthentication_required' });
    const remove = setIdentityPrompt(() => Promise.resolve(false));
    try {
      expect((await failure(call())).message).toBe('Confirm it is you');
    } finally {
      remove();
    }
    expect(getSession().token).not.toBeNull();
    expect(getNotices()).toEqual([]);
  });

  it('a 403 password_change_required keeps the session and asks for a new password', async () => {
    storeSession('alice');
    stubFetch({
      'GET /api/todos': () =>
        json({ error: 'Choose a new password first', code: 'password_change_required' }, 403),
    });
    const error = await failure(apiRequest('/api/todos', { operation: msg`Load todos failed` }));
    expect(error).toMatchObject({ handled: true, code: 'password_change_required' });
    expect(getSession()).toMatchObject({ passwordChangeRequired: true });
    expect(getSession().token).not.toBeNull();
  });

  it('a 403 operator_only (the admin page) is the sentence and keeps the session', async () => {
    storeSession('alice');
    stubFetch({
      'GET /api/admin/users': () =>
        json({ error: 'Only an operator may use the admin page', code: 'operator_only' }, 403),
    });
    const error = await failure(
      apiRequest('/api/admin/users', { operation: msg`Load accounts failed` }),
    );
    expect(error).toMatchObject({
      message: 'Only an operator may use the admin page',
      status: 403,
    });
    expect(getSession().token).not.toBeNull();
    expect(getNotices()).toEqual([]);
  });

  it('without a stored token nothing is forced', async () => {
    stubFetch({ 'GET /api/todos': () => json({ error: 'Missing token' }, 401) });
    const error = await failure(apiRequest('/api/todos', { operation: msg`Load todos failed` }));
    expect(error.message).toBe('Missing token');
    expect(getNotices()).toEqual([]);
  });

  it('the catalogue has exactly the texts of docs/product.md', () => {
    expect(ERROR_MESSAGES.server).toBe('Server error - please try again later');
    expect(ERROR_MESSAGES.network).toBe('Network error - check your connection');
    expect(ERROR_MESSAGES.authenticationFailed(401)).toBe(
      'Authentication failed (401) - please log in again',
    );
    expect(ERROR_MESSAGES.operationFailed(msg`Login failed`)).toBe('Login failed');
  });
});

describe('api-client: a failed operation in the language', () => {
  afterEach(() => activateLanguage('en'));

  const createFails = () => {
    stubFetch({ 'POST /api/todos': () => new Response('<html>nope</html>', { status: 404 }) });
    return failure(
      apiRequest('/api/todos', {
        method: 'POST',
        body: { title: 'x' },
        operation: msg`Create todo failed`,
      }),
    );
  };

  it('reads as today in English and as one whole sentence in German', async () => {
    storeSession('alice');
    expect((await createFails()).message).toBe('Create todo failed');
    await activateLanguage('de');
    expect((await createFails()).message).toBe('Die Aufgabe konnte nicht erstellt werden');
    expect(ERROR_MESSAGES.operationFailed(msg`Login failed`)).toBe(
      'Die Anmeldung ist fehlgeschlagen',
    );
  });
});
