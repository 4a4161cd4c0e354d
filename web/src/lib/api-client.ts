import type { AccessTokenResponse, ApiError as ApiErrorBody, ErrorCode } from '@tally/contract';
import {
  AUTH_PATH_PREFIX,
  ERROR_CODES,
  IDEMPOTENCY_KEY_HEADER,
  LIVE_CLIENT_HEADER,
  TIME_ZONE_HEADER,
} from '@tally/contract/constants';
import { routes, type HttpMethod } from '@tally/contract/routes';
import { ApiError, ERROR_MESSAGES, type Operation } from './api-error';
import { connection, setServerReachable } from './online';
import { proveIdentity } from './reauthentication';
import {
  SESSION_MESSAGES,
  endSession,
  expireSession,
  getSession,
  setPasswordChangeRequired,
  startSession,
} from './session-store';
import { STORAGE_KEYS, readStorage } from './storage';
import { TAB_ID } from './tab-id';
import { decodeAccessToken } from './jwt';

export {
  ApiError,
  ERROR_MESSAGES,
  conflictOf,
  errorMessage,
  fieldErrorOf,
  refusalOfField,
  type Operation,
} from './api-error';

/**
 * The one place that talks to the API (and the only caller of fetch); features call it through
 * the typed client of lib/api.ts, derived from the contract. It sends the bearer token
 * except on /api/auth/ paths, the browser's time zone and this tab's id (lib/tab-id.ts) on every
 * call and the refresh cookie
 * (same-origin credentials); it renews an access token that is about to expire before using it,
 * and turns every failure into a sentence of docs/product.md, Errors.
 */

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  /** The sentence its failure shows when the server gives none, e.g. "Create todo failed". */
  operation: Operation;
  signal?: AbortSignal;
  /** Sent as Idempotency-Key: the queued offline writes (lib/outbox.ts) run once on the server. */
  idempotencyKey?: string;
  /** The request headers the contract lets the call carry (If-Match); undefined ones are left out. */
  headers?: Record<string, string | undefined>;
  /** Reads a successful answer's headers (a page's x-next-cursor) before its body is parsed. */
  onResponse?: (response: Response) => void;
  /** The answer stays open (server-sent events): resolve to its body unread. */
  stream?: boolean;
}

/** A request renews the token first when it has less than this left (clock drift, slow tabs). */
const REQUEST_RENEWAL_MARGIN_MS = 15_000;

const isAuthPath = (path: string) => path.startsWith(AUTH_PATH_PREFIX);

function timeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** A file upload: the browser sets its multipart Content-Type (with the boundary) itself. */
const isForm = (body: unknown): body is FormData =>
  typeof FormData !== 'undefined' && body instanceof FormData;

function headersFor(
  body: unknown,
  token: string | null,
  idempotencyKey?: string,
  extra: Record<string, string | undefined> = {},
): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  for (const [name, value] of Object.entries(extra))
    if (value !== undefined) headers.set(name, value);
  if (idempotencyKey) headers.set(IDEMPOTENCY_KEY_HEADER, idempotencyKey);
  if (body !== undefined && !isForm(body)) headers.set('Content-Type', 'application/json');
  const zone = timeZone();
  if (zone) headers.set(TIME_ZONE_HEADER, zone);
  headers.set(LIVE_CLIENT_HEADER, TAB_ID);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

/** What a proxy answers for a server behind it that is down or too slow. */
const GATEWAY_FAILURES = new Set([502, 503, 504]);
/** While the server cannot be reached, it is asked again this often (lib/online.ts). */
const PROBE_MS = 5000;
let probeTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Notes whether the server answered (lib/online.ts); while it does not, asks again every
 * PROBE_MS. Offline, a failure says nothing about the server: the browser is the reason.
 */
function noteAnswer(answered: boolean): void {
  if (!answered && typeof navigator !== 'undefined' && navigator.onLine === false) return;
  setServerReachable(answered);
  if (answered) {
    if (probeTimer !== null) clearTimeout(probeTimer);
    probeTimer = null;
  } else {
    probeTimer ??= setTimeout(() => {
      probeTimer = null;
      // Answered meanwhile (another call got through): nothing to ask.
      if (connection() === 'unreachable') void probeServer();
    }, PROBE_MS);
  }
}

/**
 * Asks the server whether it answers (GET /api/health, public and cheap); answers whether it
 * did. The lists that waited for it are then fetched again (lib/query-client.ts).
 */
export async function probeServer(): Promise<boolean> {
  const { method, path } = routes.system.health;
  try {
    const response = await fetch(path, {
      method,
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      cache: 'no-store',
    });
    noteAnswer(!GATEWAY_FAILURES.has(response.status));
  } catch {
    noteAnswer(false);
  }
  return connection() === 'online';
}

/** fetch, with "no response at all" turned into the network message. */
async function send(
  path: string,
  init: {
    method: HttpMethod;
    body?: unknown;
    token: string | null;
    signal?: AbortSignal;
    idempotencyKey?: string;
    headers?: Record<string, string | undefined>;
  },
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method,
      headers: headersFor(init.body, init.token, init.idempotencyKey, init.headers),
      body: init.body === undefined || isForm(init.body) ? init.body : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    noteAnswer(false);
    throw new ApiError(ERROR_MESSAGES.network, null);
  }
  // A load answered by a proxy for a server that is down; a write's 503 may be Tally's own
  // refusal (Google sign-in not configured), which says nothing about reaching it.
  if (!GATEWAY_FAILURES.has(response.status)) noteAnswer(true);
  else if (init.method === 'GET') noteAnswer(false);
  return response;
}

/** A JSON answer parsed; a text one (a CSV file) as its text; an empty one as undefined. */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (/^text\//.test(response.headers.get('Content-Type') ?? '')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function bodyError(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const { error } = body as ApiErrorBody;
  return typeof error === 'string' && error.trim() !== '' ? error : null;
}

const isErrorCode = (code: unknown): code is ErrorCode =>
  (ERROR_CODES as readonly unknown[]).includes(code);

/** The `code` of a refusal (contract ERROR_CODES), or null for none or one this app does not know. */
function bodyCode(body: unknown): ErrorCode | null {
  if (typeof body !== 'object' || body === null || !('code' in body)) return null;
  const { code } = body as { code: unknown };
  return isErrorCode(code) ? code : null;
}

/** What a refusal says beside its sentence: its code, field and limit (decision 178). */
function refusalDetails(body: unknown): { code?: ErrorCode; field?: string; limit?: number } {
  const code = bodyCode(body);
  if (code === null) return {};
  const { field, limit } = body as { field?: unknown; limit?: unknown };
  return {
    code,
    ...(typeof field === 'string' ? { field } : {}),
    ...(typeof limit === 'number' ? { limit } : {}),
  };
}

/** Ends the session after a 401/403 with a stored token (docs/product.md, Sessions). */
function forceLogout(status: number): void {
  // Revoke the refresh cookie too; nothing waits for it.
  void send(routes.auth.logout.path, { method: routes.auth.logout.method, token: null }).catch(
    () => undefined,
  );
  endSession({ notice: ERROR_MESSAGES.authenticationFailed(status), redirectToLogin: true });
}

/**
 * Sends one request and answers the parsed body. Untyped on purpose: features call the typed
 * client of lib/api.ts, whose types come from the contract.
 */
export async function apiRequest(path: string, options: RequestOptions): Promise<unknown> {
  return requestOnce(path, options, true, true);
}

async function requestOnce(
  path: string,
  options: RequestOptions,
  mayRenew: boolean,
  mayProve: boolean,
): Promise<unknown> {
  const { method = 'GET', body, signal, idempotencyKey, headers, onResponse, stream } = options;
  const authPath = isAuthPath(path);
  let token: string | null = null;
  if (!authPath) {
    const state = await ensureFreshToken(REQUEST_RENEWAL_MARGIN_MS);
    if (state === 'unreachable') throw new ApiError(ERROR_MESSAGES.network, null);
    if (state === 'expired') {
      const expiring = getSession().token;
      if (expiring) expireSession(expiring);
      throw new ApiError(SESSION_MESSAGES.expired, 401, { handled: true });
    }
    token = getSession().token;
  }

  const response = await send(path, { method, body, token, signal, idempotencyKey, headers });
  if (response.ok) {
    onResponse?.(response);
    return stream ? response.body : readJson(response);
  }

  const { status } = response;
  // A 403 with a code refuses this call, not the session: prove who you are, or change the
  // one-time password first (docs/decisions/071-recent-authentication.md).
  const refusal = status === 403 ? await readJson(response) : undefined;
  const code = bodyCode(refusal);
  if (code === 'reauthentication_required') {
    if (mayProve && (await proveIdentity())) return requestOnce(path, options, mayRenew, false);
    throw new ApiError(
      bodyError(refusal) ?? ERROR_MESSAGES.operationFailed(options.operation),
      status,
      {
        code,
      },
    );
  }
  if (code === 'password_change_required') {
    setPasswordChangeRequired(true);
    throw new ApiError(
      bodyError(refusal) ?? ERROR_MESSAGES.operationFailed(options.operation),
      status,
      {
        code,
        handled: true,
      },
    );
  }
  // A coded 403 (operator_only) refuses this call only and falls through to its sentence.
  if (
    (status === 401 || (status === 403 && code === null)) &&
    !authPath &&
    token &&
    getSession().token
  ) {
    // A refused access token may still have a good refresh cookie behind it (a server restart
    // with a new key, an older token format): renew once and retry before giving up.
    if (status === 401 && mayRenew && (await renewAccessToken(0, token)) === 'renewed') {
      return requestOnce(path, options, false, mayProve);
    }
    if (getSession().token) forceLogout(status);
    throw new ApiError(ERROR_MESSAGES.authenticationFailed(status), status, { handled: true });
  }
  if (status >= 500) throw new ApiError(ERROR_MESSAGES.server, status);
  if (status === 412) {
    // Changed since the version the write started from: the answer is the thing as it is now
    // (docs/decisions/113-versions-and-if-match.md), for the screen to show beside the change.
    const current = await readJson(response);
    throw new ApiError(ERROR_MESSAGES.changedElsewhere, status, { current });
  }
  const answer = status === 403 ? refusal : await readJson(response);
  throw new ApiError(
    bodyError(answer) ?? ERROR_MESSAGES.operationFailed(options.operation),
    status,
    refusalDetails(answer),
  );
}

// --- Keeping the access token fresh (docs/product.md, Sessions) ------------------------------

type RenewalResult = 'renewed' | 'refused' | 'unavailable';
/**
 * `unreachable`: the token has run out and the server could not be asked for a new one (offline):
 * the session stays, showing the saved data, until the network is back (docs/product.md, Offline).
 */
export type TokenState = 'none' | 'valid' | 'expired' | 'unreachable';

let renewal: Promise<RenewalResult> | null = null;
/** The token whose renewal the server refused; it is not tried again. */
let refusedToken: string | null = null;

/** Runs `task` while holding a lock shared by every tab, where the browser has Web Locks. */
async function withTabLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return task();
  let result: { value: T } | undefined;
  await locks.request('tally-token-renewal', async () => {
    result = { value: await task() };
  });
  if (!result) throw new Error('Token renewal lock released without running');
  return result.value;
}

async function renewOnce(marginMs: number, rejected: string | null): Promise<RenewalResult> {
  const before = getSession().token;
  if (!before) return 'refused';
  // Refresh tokens rotate with reuse detection: if another tab renewed while this one waited for
  // the lock, use its token instead of presenting the cookie a second time.
  const stored = readStorage(STORAGE_KEYS.token);
  const storedClaims = stored ? decodeAccessToken(stored) : null;
  const storedIsFresh = !!storedClaims && storedClaims.exp * 1000 - Date.now() > marginMs;
  if (stored && storedIsFresh && stored !== rejected) {
    if (stored !== before) startSession(stored);
    return 'renewed';
  }

  let response: Response;
  try {
    response = await send(routes.auth.refresh.path, {
      method: routes.auth.refresh.method,
      token: null,
    });
  } catch {
    return 'unavailable';
  }
  if (response.status >= 500 || response.status === 429) {
    // The session stays while the server cannot be reached, as offline (lib/online.ts).
    if (GATEWAY_FAILURES.has(response.status)) noteAnswer(false);
    return 'unavailable';
  }
  if (!response.ok) {
    refusedToken = before;
    return 'refused';
  }
  const body = (await readJson(response)) as Partial<AccessTokenResponse> | undefined;
  // Signed out (or in as someone else) meanwhile: do not bring the old session back.
  if (getSession().token !== before) return 'refused';
  try {
    startSession(typeof body?.accessToken === 'string' ? body.accessToken : '', {
      passwordChangeRequired: body?.passwordChangeRequired === true,
    });
    return 'renewed';
  } catch {
    refusedToken = before;
    return 'refused';
  }
}

/**
 * Asks POST /api/auth/refresh for a new access token; concurrent callers share one attempt.
 * `rejected` is a token the server has just refused, which never counts as fresh.
 */
function renewAccessToken(marginMs = 0, rejected: string | null = null): Promise<RenewalResult> {
  renewal ??= withTabLock(() => renewOnce(marginMs, rejected)).finally(() => {
    renewal = null;
  });
  return renewal;
}

/**
 * Renews the stored token when less than `marginMs` of it is left, then says whether there is
 * a token and whether it is still valid. Never ends the session itself.
 */
export async function ensureFreshToken(marginMs: number): Promise<TokenState> {
  const { token, tokenExpiry } = getSession();
  if (!token) return 'none';
  if (tokenExpiry - Date.now() > marginMs) return 'valid';
  const result = refusedToken !== token ? await renewAccessToken(marginMs) : 'refused';
  const current = getSession();
  if (!current.token) return 'none';
  if (current.tokenExpiry > Date.now()) return 'valid';
  return result === 'unavailable' && current.token === token ? 'unreachable' : 'expired';
}
