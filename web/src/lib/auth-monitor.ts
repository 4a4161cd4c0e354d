import { ensureFreshToken } from './api-client';
import { expireSession, getSession, subscribeSession } from './session-store';

/** Expiry is checked every 30 s; the warning comes 5 minutes before (docs/product.md, Sessions). */
export const EXPIRY_CHECK_INTERVAL_MS = 30_000;
const EXPIRY_WARNING_MS = 5 * 60_000;
/** Renewal starts at the warning threshold, so the warning only appears when renewal failed. */
const RENEWAL_MARGIN_MS = EXPIRY_WARNING_MS;

let warnedToken: string | null = null;

/**
 * One expiry check: renew the token when it is near its end, warn (console only) when it still
 * is, and run the expiry flow once it has run out.
 */
async function checkSession(): Promise<void> {
  const token = getSession().token;
  if (!token) return;
  const state = await ensureFreshToken(RENEWAL_MARGIN_MS);
  if (state === 'expired') {
    expireSession(token);
    return;
  }
  const current = getSession();
  if (state !== 'valid' || !current.token) return;
  const remaining = current.tokenExpiry - Date.now();
  if (remaining <= EXPIRY_WARNING_MS && warnedToken !== current.token) {
    warnedToken = current.token;
    const minutes = Math.max(1, Math.ceil(remaining / 60_000));
    console.warn(`Session expires in ${minutes} minute${minutes === 1 ? '' : 's'}`);
  }
}

/**
 * Checks at start and every 30 s while a session exists (and when the tab becomes visible
 * again, since hidden tabs' timers are throttled, and when the network comes back); stops when
 * the session ends.
 */
export function startAuthMonitor(): () => void {
  let timer: ReturnType<typeof setInterval> | null = null;

  const follow = () => {
    const signedIn = getSession().token !== null;
    if (signedIn && timer === null) {
      void checkSession();
      timer = setInterval(() => void checkSession(), EXPIRY_CHECK_INTERVAL_MS);
    } else if (!signedIn && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') void checkSession();
  };
  // Back online: a token that ran out while offline is renewed now (or the session ends).
  const onOnline = () => void checkSession();

  const unsubscribe = subscribeSession(follow);
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('online', onOnline);
  follow();
  return () => {
    unsubscribe();
    document.removeEventListener('visibilitychange', onVisible);
    window.removeEventListener('online', onOnline);
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
}
