import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useSyncExternalStore } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { ApiError, ERROR_MESSAGES } from './api-error';
import { decodeAccessToken } from './jwt';
import { showNotice } from './notices';
import { STORAGE_KEYS, readStorage, removeStorage, tabStorage, writeStorage } from './storage';

/** The logout notice shows 3 s; /login follows after 100 ms (docs/product.md, Sessions). */
const LOGOUT_NOTICE_MS = 3000;
const LOGIN_REDIRECT_DELAY_MS = 100;

/** Read when shown, so that they are in the language of that moment. */
export const SESSION_MESSAGES = {
  get expired() {
    return i18n._(msg`Your session has expired`);
  },
  get expiredOnStart() {
    return i18n._(msg`Session expired on app start`);
  },
  /** Logged to the console whenever expiry ends a session. */
  expiredLog: 'Session expired',
};

/**
 * The signed-in user (docs/product.md, Sessions). Per-request `loading` and `error` live
 * in each request's own state (React Query), so opening a form always starts without an error.
 */
export interface Session {
  /** The username (the token's sub). */
  user: string | null;
  token: string | null;
  /** When the access token expires, in epoch milliseconds; 0 when its payload is unreadable. */
  tokenExpiry: number;
  isAuthenticated: boolean;
  /** Between a forced logout and the delayed move to /login. */
  redirectPending: boolean;
  /**
   * The password is a one-time one the operator generated: the app shows "Choose a new password"
   * before anything else (the API refuses other calls with code password_change_required).
   */
  passwordChangeRequired: boolean;
}

const ANONYMOUS: Session = {
  user: null,
  token: null,
  tokenExpiry: 0,
  isAuthenticated: false,
  redirectPending: false,
  passwordChangeRequired: false,
};

let session: Session = ANONYMOUS;
/**
 * Whether this tab's last session was ended for it (expired, or ended from another device): the
 * login screen says so, since the notice that told it may be gone by then, even after a reload
 * (the live stream may end the session a moment before the person reloads). A sign-in clears it.
 */
let endedForcibly = tabStorage.read(STORAGE_KEYS.sessionEnded) === '1';

function setEndedForcibly(ended: boolean): void {
  endedForcibly = ended;
  if (ended) tabStorage.write(STORAGE_KEYS.sessionEnded, '1');
  else tabStorage.remove(STORAGE_KEYS.sessionEnded);
}
/** The stored token found already expired when the app started, until it is renewed or ends. */
let expiredAtStartToken: string | null = null;
/** The delayed move to /login after a forced logout; a new session cancels it. */
let pendingRedirect: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

function publish(next: Session): void {
  session = next;
  listeners.forEach((listener) => listener());
}

function cancelPendingRedirect(): void {
  if (pendingRedirect !== null) clearTimeout(pendingRedirect);
  pendingRedirect = null;
}

function sessionFor(token: string, fallbackUser: string | null): Session {
  const claims = decodeAccessToken(token);
  return {
    user: claims?.sub ?? fallbackUser,
    token,
    tokenExpiry: claims ? claims.exp * 1000 : 0,
    isAuthenticated: true,
    redirectPending: false,
    passwordChangeRequired: false,
  };
}

/**
 * Reads token and username from localStorage. At start (and in tests) `atStart` remembers an
 * already-expired token so that ending it says "Session expired on app start".
 */
export function loadSessionFromStorage({ atStart = false }: { atStart?: boolean } = {}): void {
  cancelPendingRedirect();
  const token = readStorage(STORAGE_KEYS.token);
  const next = token ? sessionFor(token, readStorage(STORAGE_KEYS.username)) : ANONYMOUS;
  if (atStart) {
    expiredAtStartToken = next.token && next.tokenExpiry <= Date.now() ? next.token : null;
  }
  publish(next);
}

export function getSession(): Session {
  return session;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/**
 * Stores a token from the server and signs its user in; an unreadable token is refused.
 * `passwordChangeRequired` is the sign-in answer's: the one-time password must be changed first.
 */
export function startSession(token: string, { passwordChangeRequired = false } = {}): void {
  const claims = decodeAccessToken(token);
  if (!claims) throw new ApiError(ERROR_MESSAGES.invalidToken, null);
  writeStorage(STORAGE_KEYS.token, token);
  writeStorage(STORAGE_KEYS.username, claims.sub);
  expiredAtStartToken = null;
  setEndedForcibly(false);
  cancelPendingRedirect();
  publish({ ...sessionFor(token, claims.sub), passwordChangeRequired });
}

/** The server asked for a new password (or no longer does): show or leave the screen for it. */
export function setPasswordChangeRequired(required: boolean): void {
  if (session.token && session.passwordChangeRequired !== required) {
    publish({ ...session, passwordChangeRequired: required });
  }
}

interface EndSessionOptions {
  /** A red notice shown for LOGOUT_NOTICE_MS. */
  notice?: string;
  /** Go to /login after LOGIN_REDIRECT_DELAY_MS (forced logouts). */
  redirectToLogin?: boolean;
}

/** Signs the user out of this browser: clears storage and state, optionally tells and redirects. */
export function endSession({ notice, redirectToLogin = false }: EndSessionOptions = {}): void {
  removeStorage(STORAGE_KEYS.token);
  removeStorage(STORAGE_KEYS.username);
  expiredAtStartToken = null;
  setEndedForcibly(redirectToLogin);
  publish({ ...ANONYMOUS, redirectPending: redirectToLogin });
  if (notice) showNotice(notice, { tone: 'error', durationMs: LOGOUT_NOTICE_MS });
  cancelPendingRedirect();
  if (redirectToLogin) {
    pendingRedirect = setTimeout(() => {
      pendingRedirect = null;
      if (window.location.pathname !== '/login') navigate('/login', { replace: true });
      if (session.redirectPending) publish({ ...session, redirectPending: false });
    }, LOGIN_REDIRECT_DELAY_MS);
  }
}

/** Whether the last session of this tab was ended for the person rather than by them. */
export function sessionEndedForcibly(): boolean {
  return endedForcibly;
}

/** The expiry flow (docs/product.md, Sessions) for the given token, if it is still current. */
export function expireSession(token: string): void {
  if (session.token !== token) return;
  const notice =
    expiredAtStartToken === token ? SESSION_MESSAGES.expiredOnStart : SESSION_MESSAGES.expired;
  console.info(SESSION_MESSAGES.expiredLog);
  endSession({ notice, redirectToLogin: true });
}

// Another tab signed in, renewed the token or signed out: follow it.
window.addEventListener('storage', (event) => {
  if (event.key !== STORAGE_KEYS.token && event.key !== null) return;
  const stored = readStorage(STORAGE_KEYS.token);
  if (stored !== session.token) loadSessionFromStorage();
});

loadSessionFromStorage({ atStart: true });
