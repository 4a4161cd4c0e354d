import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, networkFailure, noContent } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';
import { LOGOUT_RETRY_DELAYS_MS, startLogoutRetry } from './logout';

const PENDING = 'logoutPending';

/** A logout endpoint that fails while `down` is true, counting the requests. */
function flakyLogout() {
  const state = { down: true, requests: 0 };
  const { calls } = fakeBackend(
    {},
    {
      'POST /api/auth/logout': () => {
        state.requests += 1;
        return state.down ? networkFailure() : noContent();
      },
    },
  );
  return { state, calls };
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('a logout whose request fails', () => {
  it('signs out here at once, and revokes the cookie when the browser is back online', async () => {
    storeSession('alice');
    const { state } = flakyLogout();
    const { user } = renderApp('/todos');

    await user.click(await screen.findByRole('button', { name: 'Logout alice' }));

    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem(PENDING)).toBe('1');
    expect(state.requests).toBe(1);
    expect(console.warn).toHaveBeenCalledWith(
      expect.stringMatching(/^Logout request failed/),
      expect.anything(),
    );

    state.down = false;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });

    await waitFor(() => expect(window.localStorage.getItem(PENDING)).toBeNull());
    expect(state.requests).toBe(2);
  });

  it('is sent again at the next start of the app', async () => {
    window.localStorage.setItem(PENDING, '1');
    const { state, calls } = flakyLogout();
    state.down = false;

    renderApp('/login');

    await waitFor(() => expect(window.localStorage.getItem(PENDING)).toBeNull());
    const logout = calls.find((call) => call.path === '/api/auth/logout');
    expect(logout?.method).toBe('POST');
    expect(logout?.credentials).toBe('same-origin');
    expect(logout?.headers.has('Authorization')).toBe(false);
  });

  it('is dropped, without a request, once someone has signed in again (their cookie replaced it)', async () => {
    window.localStorage.setItem(PENDING, '1');
    storeSession('bob');
    const { state } = flakyLogout();

    renderApp('/todos');

    expect(await screen.findByRole('button', { name: 'Logout bob' })).toBeInTheDocument();
    expect(window.localStorage.getItem(PENDING)).toBeNull();
    expect(state.requests).toBe(0);
  });
});

describe('startLogoutRetry', () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  it('tries again at growing intervals while the page stays open, until the server answers', async () => {
    vi.useFakeTimers();
    window.localStorage.setItem(PENDING, '1');
    const { state } = flakyLogout();

    stop = startLogoutRetry();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.requests).toBe(1); // at start

    const [first = 0, second = 0, third = 0] = LOGOUT_RETRY_DELAYS_MS;
    await vi.advanceTimersByTimeAsync(first - 1);
    expect(state.requests).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.requests).toBe(2);
    await vi.advanceTimersByTimeAsync(second);
    expect(state.requests).toBe(3);

    state.down = false;
    await vi.advanceTimersByTimeAsync(third);
    expect(state.requests).toBe(4);
    expect(window.localStorage.getItem(PENDING)).toBeNull();

    // Done: nothing more is sent.
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(state.requests).toBe(4);
  });

  it('sends nothing when no logout is pending', async () => {
    const { state } = flakyLogout();
    stop = startLogoutRetry();
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await Promise.resolve();
    expect(state.requests).toBe(0);
  });
});
