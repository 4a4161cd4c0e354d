import { msg } from '@lingui/core/macro';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client';
import { EXPIRY_CHECK_INTERVAL_MS, startAuthMonitor } from './auth-monitor';
import { getNotices } from './notices';
import { endSession, getSession, loadSessionFromStorage } from './session-store';
import { json, networkFailure, noContent, stubFetch, type RouteHandler } from '#web/test/fake-api';
import { makeToken, storeSession } from '#web/test/tokens';

const MINUTE = 60_000;
let stop: (() => void) | null = null;

function start(refresh: RouteHandler) {
  const api = stubFetch({
    'POST /api/auth/refresh': refresh,
    'POST /api/auth/logout': () => noContent(),
    'GET /api/todos': () => json([]),
    'GET /api/health': () => json({ status: 'ok' }),
  });
  stop = startAuthMonitor();
  return api;
}

const refreshCalls = (calls: { path: string }[]) =>
  calls.filter((call) => call.path === '/api/auth/refresh').length;

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z') });
  window.history.replaceState(null, '', '/todos');
});

afterEach(() => {
  stop?.();
  stop = null;
});

describe('auth monitor: at app start', () => {
  it('renews an expired stored token silently when the refresh cookie is still good', async () => {
    storeSession('alice', -60);
    const { calls } = start(() => json({ accessToken: makeToken('alice', 900) }));
    await vi.advanceTimersByTimeAsync(0);

    expect(refreshCalls(calls)).toBe(1);
    expect(getSession()).toMatchObject({ user: 'alice', isAuthenticated: true });
    expect(getSession().tokenExpiry).toBe(Date.now() + 900_000);
    expect(getNotices()).toEqual([]);
  });

  it('clears an expired token it cannot renew: "Session expired on app start", then /login', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    storeSession('alice', -60);
    start(() => json({ error: 'Refresh token expired' }, 401));
    await vi.advanceTimersByTimeAsync(0);

    expect(getSession().token).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(getNotices().map((notice) => notice.text)).toEqual(['Session expired on app start']);
    expect(info).toHaveBeenCalledWith('Session expired');
    await vi.advanceTimersByTimeAsync(100);
    expect(window.location.pathname).toBe('/login');
    await vi.advanceTimersByTimeAsync(3000);
    expect(getNotices()).toEqual([]);
  });

  it('treats a token with an unreadable payload as expired', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    window.localStorage.setItem('token', 'not-a-jwt');
    window.localStorage.setItem('username', 'alice');
    loadSessionFromStorage({ atStart: true });
    start(() => json({ error: 'No session' }, 401));
    await vi.advanceTimersByTimeAsync(0);

    expect(getSession().token).toBeNull();
    expect(getNotices().map((notice) => notice.text)).toEqual(['Session expired on app start']);
  });

  it('does nothing without a token', async () => {
    const { calls } = start(() => json({ accessToken: makeToken() }));
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(calls).toEqual([]);
  });
});

describe('auth monitor: while signed in', () => {
  it('renews the token silently 5 minutes before it expires, and keeps doing so', async () => {
    const warn = vi.spyOn(console, 'warn');
    storeSession('alice', 15 * 60);
    const { calls } = start(() => json({ accessToken: makeToken('alice', 15 * 60) }));

    await vi.advanceTimersByTimeAsync(9 * MINUTE + 30_000);
    expect(refreshCalls(calls)).toBe(0);
    await vi.advanceTimersByTimeAsync(30_000); // 10 minutes in: 5 minutes left
    expect(refreshCalls(calls)).toBe(1);
    expect(getSession().tokenExpiry).toBe(Date.now() + 15 * MINUTE);

    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(refreshCalls(calls)).toBe(4);
    expect(getSession().user).toBe('alice');
    expect(warn).not.toHaveBeenCalled();
    expect(getNotices()).toEqual([]);
  });

  it('when renewal is refused: warns once at 5 minutes, then runs the expiry flow', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    storeSession('alice', 6 * 60);
    const { calls } = start(() => json({ error: 'Refresh token reused' }, 401));

    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(refreshCalls(calls)).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('Session expires in 5 minutes');

    await vi.advanceTimersByTimeAsync(4 * MINUTE + 30_000);
    expect(getSession().token).not.toBeNull();
    expect(refreshCalls(calls)).toBe(1); // a refused renewal is not retried
    expect(warn).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(EXPIRY_CHECK_INTERVAL_MS);
    expect(getSession().token).toBeNull();
    expect(getNotices().map((notice) => notice.text)).toEqual(['Your session has expired']);
    await vi.advanceTimersByTimeAsync(100);
    expect(window.location.pathname).toBe('/login');
  });

  it('retries a renewal that failed for lack of a response at the next check', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    storeSession('alice', 5 * 60);
    let attempts = 0;
    const { calls } = start(() => {
      attempts += 1;
      return attempts === 1 ? networkFailure() : json({ accessToken: makeToken('alice', 900) });
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshCalls(calls)).toBe(1);
    expect(getSession().tokenExpiry).toBe(Date.now() + 5 * MINUTE);

    await vi.advanceTimersByTimeAsync(EXPIRY_CHECK_INTERVAL_MS);
    expect(refreshCalls(calls)).toBe(2);
    expect(getSession().tokenExpiry).toBe(Date.now() + 15 * MINUTE);
  });

  it('stops checking on logout', async () => {
    storeSession('alice', 6 * 60);
    const { calls } = start(() => json({ accessToken: makeToken('alice', 900) }));
    endSession();
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(calls).toEqual([]);
  });

  it('renews before a request when the token has (almost) run out, e.g. in a sleeping tab', async () => {
    storeSession('alice', 10);
    const { calls } = stubFetch({
      'POST /api/auth/refresh': () => json({ accessToken: makeToken('alice', 900) }),
      'GET /api/todos': () => json([]),
    });
    await apiRequest('/api/todos', { operation: msg`Load todos failed` });
    expect(calls.map((call) => call.path)).toEqual(['/api/auth/refresh', '/api/todos']);
    expect(calls[1]?.headers.get('Authorization')).toBe(`Bearer ${getSession().token}`);
  });

  it('shares one renewal between concurrent callers (refresh tokens rotate)', async () => {
    storeSession('alice', 5);
    const { calls } = stubFetch({
      'POST /api/auth/refresh': () => json({ accessToken: makeToken('alice', 900) }),
      'GET /api/todos': () => json([]),
      'GET /api/todo-groups': () => json([]),
    });
    await Promise.all([
      apiRequest('/api/todos', { operation: msg`Load todos failed` }),
      apiRequest('/api/todo-groups', { operation: msg`Load groups failed` }),
    ]);
    expect(refreshCalls(calls)).toBe(1);
  });
});
