import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicConfig } from '@tally/contract';
import { navigate } from 'wouter/use-browser-location';
import { api } from '#web/lib/api';
import { configQueryOptions } from './get-config';
import { endSession, getSession } from '#web/lib/session-store';
import { STORAGE_KEYS, readStorage, removeStorage, writeStorage } from '#web/lib/storage';

/*
 * Only a request that reaches the server revokes the refresh cookie: it is httpOnly, so the page
 * cannot delete it, and until it is revoked anyone at this browser could renew the session with
 * it. A retry a few seconds later would not outlast a real outage (a laptop offline, a server
 * restart), so a failed logout is remembered in localStorage and sent again: when the browser
 * comes back online, at growing intervals while the page stays open, and at the next start of
 * the app. The duty ends with the server's answer, or with a new sign-in in this browser, whose
 * cookie has replaced the old one (the old session then ends at its own expiry).
 */

/** Waits between retries while the page is open; the last one repeats. */
export const LOGOUT_RETRY_DELAYS_MS = [2_000, 10_000, 60_000, 300_000] as const;

let failures = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let inFlight = false;

async function revokeCookie(): Promise<boolean> {
  try {
    await api.auth.logout({ operation: msg`Logout failed` });
    return true;
  } catch (error) {
    console.warn('Logout request failed; it is sent again once the server can be reached', error);
    return false;
  }
}

/** Counts a failed request and sends it again after the next wait. */
function failed(): void {
  failures += 1;
  if (timer !== null) clearTimeout(timer);
  const delays = LOGOUT_RETRY_DELAYS_MS;
  timer = setTimeout(
    () => {
      timer = null;
      void retryPendingLogout();
    },
    delays[Math.min(failures, delays.length) - 1],
  );
}

/** Sends a logout that failed earlier, if one is pending and no one has signed in since. */
async function retryPendingLogout(): Promise<void> {
  if (inFlight || readStorage(STORAGE_KEYS.logoutPending) === null) return;
  if (getSession().token !== null) {
    // Signed in again: the cookie belongs to the new session now.
    removeStorage(STORAGE_KEYS.logoutPending);
    return;
  }
  inFlight = true;
  try {
    if (await revokeCookie()) {
      removeStorage(STORAGE_KEYS.logoutPending);
      failures = 0;
    } else {
      failed();
    }
  } finally {
    inFlight = false;
  }
}

/** At app start: sends a pending logout now, and again whenever the browser comes online. */
export function startLogoutRetry(): () => void {
  const onOnline = () => void retryPendingLogout();
  window.addEventListener('online', onOnline);
  void retryPendingLogout();
  return () => {
    window.removeEventListener('online', onOnline);
    if (timer !== null) clearTimeout(timer);
    timer = null;
    failures = 0;
  };
}

/**
 * Logs out and goes to / (docs/product.md, Navigation). The cookie is revoked first, so that its
 * clearing cannot race a new login; when the server cannot be reached the browser signs out
 * anyway and the request is sent again later (above).
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      // With single sign-on, the provider's session may end too (RP-initiated logout): the
      // server ends Tally's session and names the provider's logout page, which comes back to
      // /login. Should that call fail, the usual logout below (with its retries) still runs.
      const config = await queryClient
        .ensureQueryData(configQueryOptions)
        .catch((): PublicConfig | null => null);
      if (config?.oidc) {
        try {
          const { endSessionUrl } = await api.oidc.logout({ operation: msg`Logout failed` });
          endSession();
          if (endSessionUrl) window.location.assign(endSessionUrl);
          else navigate('/');
          return;
        } catch (error) {
          console.warn('Logout with single sign-on failed; signing out of Tally only', error);
        }
      }
      if (!(await revokeCookie())) {
        writeStorage(STORAGE_KEYS.logoutPending, '1');
        failures = 0;
        failed();
      }
      endSession();
      navigate('/');
    },
  });
}
