import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { HttpMethod, Route } from '@tally/contract/routes';
import { etagOfVersion } from '@tally/contract/constants';
import { apiRequest, ApiError, conflictOf, type Operation } from './api-client';
import { reportMutationError } from './mutation-errors';
import { showNotice } from './notices';
import { isOffline } from './online';
import { publishQueuedWrites } from './outbox-count';
import { readOffline, updateOffline } from './offline-store';
import { getSession } from './session-store';

/**
 * Writes made offline (docs/product.md, Offline), kept in IndexedDB per user so they survive a
 * reload, and sent in the order they were made once the browser is online again. Each carries
 * the Idempotency-Key made with the change: a write the server got but whose answer was lost is
 * answered again, not done twice. Loaded on demand (app/providers.tsx, the todos' offline calls).
 */
export interface QueuedWrite {
  /** The Idempotency-Key, made when the change was made. */
  key: string;
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** If-Match, with the version the change started from. */
  headers?: Record<string, string>;
  /** The change as the person reads it, should it meet a change made elsewhere meanwhile. */
  label?: string;
  /**
   * The sentence its failure shows ("Create todo failed"), kept as the message (its id), so that
   * it reads in the language of the moment it is shown.
   */
  operation: Operation;
  /** A create's stand-in id, used in later writes' paths until the server gives the real one. */
  tempId?: number;
}

/** A refused or unreachable server is asked again after this long, while the page is online. */
const RETRY_MS = 5000;

const outboxKey = (user: string) => `outbox:${user.toLowerCase()}`;

const publish = (writes: readonly QueuedWrite[] | undefined) =>
  publishQueuedWrites(writes?.length ?? 0);

let lastTempId = 0;
/** A negative id, so it never clashes with the server's, unique in this browser. */
export function newTempId(): number {
  lastTempId = Math.min(lastTempId - 1, -Date.now() * 1000);
  return lastTempId;
}

/** Adds a write at the end of the signed-in user's queue. */
export async function queueWrite(write: Omit<QueuedWrite, 'key'>): Promise<void> {
  const user = getSession().user;
  if (!user) throw new ApiError('Sign in to make changes', 401, { handled: true });
  let next: QueuedWrite[] = [];
  await updateOffline<QueuedWrite[]>(outboxKey(user), (writes = []) => {
    next = [...writes, { ...write, key: crypto.randomUUID() }];
    return next;
  });
  publish(next);
}

/**
 * What an offline-capable call (the route table's `offline`) does while the browser is offline:
 * it is queued (lib/outbox.ts) and answers `result` at once, what the server would most likely
 * answer. Made only then, so the caller's offline code loads on first use.
 */
export interface OfflineCall<R> {
  result: R;
  /** Queued as this call instead (an edit as a PATCH of the fields it changes); null: nothing to send. */
  send?: { route: Route; params?: object; body?: unknown } | null;
  /** If-Match with the version the change started from, where the online call sends none. */
  headers?: Record<string, string>;
  /** The change in the person's words, should it meet a change made elsewhere meanwhile. */
  label?: string;
  /** A create's stand-in id, used in later writes' paths until the server gives its own. */
  tempId?: number;
}

/**
 * An offline-capable call made while offline (lib/api.ts), queued as its caller's `offline`
 * answer says; answers that answer's result.
 */
export async function queueCall<R>(
  route: Route,
  call: {
    params?: object;
    body?: unknown;
    headers?: Record<string, string | undefined>;
    operation: Operation;
  },
  offline: OfflineCall<R>,
  urlOf: (route: Route, params?: object) => string,
): Promise<R> {
  const { send = { route, params: call.params, body: call.body } } = offline;
  if (send === null) return offline.result;
  const headers = Object.fromEntries(
    Object.entries({ ...call.headers, ...offline.headers }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  await queueWrite({
    method: send.route.method,
    path: urlOf(send.route, send.params),
    operation: call.operation,
    ...(send.body === undefined ? {} : { body: send.body }),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(offline.label === undefined ? {} : { label: offline.label }),
    ...(offline.tempId === undefined ? {} : { tempId: offline.tempId }),
  });
  return offline.result;
}

/** Reads the signed-in user's queue (at start, or after another user signed in). */
export async function loadOutbox(): Promise<void> {
  const user = getSession().user;
  publish(user ? await readOffline<QueuedWrite[]>(outboxKey(user)) : []);
}

const refersTo = (path: string, id: number) => new RegExp(`/${id}(?=/|$)`).test(path);

/**
 * Body fields that name another todo: a subtask's parent, the sibling a todo is moved next to
 * (decision 083). A todo made offline may be named there by its stand-in id too.
 */
const TODO_FIELDS = ['parentId', 'beforeId', 'afterId'] as const;

const fieldsOf = (body: unknown): Record<string, unknown> | null =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;

const namesTodo = (write: QueuedWrite, id: number) =>
  refersTo(write.path, id) || TODO_FIELDS.some((field) => fieldsOf(write.body)?.[field] === id);

/** The write with the stand-in id replaced by the server's, in its path and body. */
function withId(write: QueuedWrite, tempId: number, createdId: number): QueuedWrite {
  const body = fieldsOf(write.body);
  return {
    ...write,
    path: write.path.replace(new RegExp(`/${tempId}(?=/|$)`), `/${createdId}`),
    ...(body && {
      body: Object.fromEntries(
        Object.entries(body).map(([field, value]) => [
          field,
          (TODO_FIELDS as readonly string[]).includes(field) && value === tempId
            ? createdId
            : value,
        ]),
      ),
    }),
  };
}

/** The thing a write's path changes: `/api/todos/5` for a PATCH of it, a move or a skip. */
const thingOf = (path: string) => /^.*?\/-?\d+(?=\/|$)/.exec(path)?.[0] ?? path;

/**
 * The later writes to the same thing that started from the version `done` started from: they
 * follow it, so they start from the version it made (`version`), not one it made stale. A move
 * queued after a completion of the same todo is one of them.
 */
function afterVersion(writes: QueuedWrite[], done: QueuedWrite, version: number | null) {
  const from = done.headers?.['if-match'];
  if (from === undefined || version === null) return writes;
  const thing = thingOf(done.path);
  return writes.map((write) =>
    thingOf(write.path) === thing && write.headers?.['if-match'] === from
      ? { ...write, headers: { ...write.headers, 'if-match': etagOfVersion(version) } }
      : write,
  );
}

/** The queue after its first write was done (`createdId`: the id the server gave) or dropped. */
function afterFirst(writes: QueuedWrite[], done: QueuedWrite, createdId: number | null) {
  const rest = writes.filter((write) => write.key !== done.key);
  if (done.tempId === undefined) return rest;
  const tempId = done.tempId;
  // A create the server refused takes the later changes that name that todo with it.
  if (createdId === null) return rest.filter((write) => !namesTodo(write, tempId));
  return rest.map((write) => (namesTodo(write, tempId) ? withId(write, tempId, createdId) : write));
}

const idOf = (body: unknown): number | null =>
  typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'number'
    ? body.id
    : null;

const versionOf = (body: unknown): number | null =>
  typeof body === 'object' && body !== null && 'version' in body && typeof body.version === 'number'
    ? body.version
    : null;

/**
 * A queued change that met a change made elsewhere while this browser was offline (a 412): it
 * was not applied. The person says which stays: theirs (queued again on the version it is now,
 * with a new key, so it still arrives once) or the one made elsewhere.
 */
function offerConflict(write: QueuedWrite, current: { version: number }, onSent: () => void) {
  const change = write.label;
  showNotice(
    change === undefined
      ? i18n._(msg`Changed elsewhere while you were offline. Your change was not sent.`)
      : i18n._(msg`Changed elsewhere while you were offline: ${change}. Your change was not sent.`),
    {
      tone: 'info',
      actions: [
        {
          label: i18n._(msg`Keep mine`),
          run: () => {
            const again: Omit<QueuedWrite, 'key'> = {
              method: write.method,
              path: write.path,
              body: write.body,
              operation: write.operation,
              headers: { ...write.headers, 'if-match': etagOfVersion(current.version) },
              ...(write.label === undefined ? {} : { label: write.label }),
            };
            void queueWrite(again)
              .then(() => flushOutbox(onSent))
              .catch((error: unknown) => reportMutationError(error, write.operation));
          },
        },
        // The lists show the thing as it is now.
        { label: i18n._(msg`Take theirs`), run: onSent },
      ],
    },
  );
}

/** A failure worth trying again later: no network, the server down or busy, or still running. */
const isTransient = (error: unknown) =>
  !(error instanceof ApiError) ||
  error.status === null ||
  error.status >= 500 ||
  error.status === 429 ||
  error.status === 409;

let flushing: Promise<void> | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

async function sendAll(user: string, onSent: () => void): Promise<void> {
  const key = outboxKey(user);
  let sent = false;
  try {
    for (;;) {
      if (isOffline() || getSession().user !== user) return;
      const writes = (await readOffline<QueuedWrite[]>(key)) ?? [];
      publish(writes);
      const [first] = writes;
      if (!first) return;
      let createdId: number | null = null;
      let version: number | null = null;
      try {
        const answer = await apiRequest(first.path, {
          method: first.method,
          body: first.body,
          headers: first.headers,
          operation: first.operation,
          idempotencyKey: first.key,
        });
        createdId = idOf(answer);
        version = versionOf(answer);
        sent = true;
      } catch (error) {
        if (error instanceof ApiError && error.handled) return;
        const current = conflictOf(error);
        if (isTransient(error)) {
          retryTimer ??= setTimeout(() => {
            retryTimer = null;
            void flushOutbox(onSent);
          }, RETRY_MS);
          return;
        }
        if (current) offerConflict(first, current, onSent);
        // Refused for good (the todo was deleted meanwhile, bad input): say so and go on.
        else reportMutationError(error, first.operation);
      }
      let next: QueuedWrite[] = [];
      await updateOffline<QueuedWrite[]>(key, (queued = []) => {
        next = afterVersion(afterFirst(queued, first, createdId), first, version);
        return next;
      });
      publish(next);
    }
  } finally {
    if (sent) onSent();
  }
}

/**
 * Sends the queue in order, one write at a time, in one tab at a time (Web Locks where the
 * browser has them; the Idempotency-Keys make a second sender harmless anyway). `onSent` runs
 * once something was sent, to fetch the lists again.
 */
export function flushOutbox(onSent: () => void): Promise<void> {
  const user = getSession().user;
  if (!user || isOffline()) return Promise.resolve();
  flushing ??= (async () => {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (locks) await locks.request('tally-outbox', () => sendAll(user, onSent));
    else await sendAll(user, onSent);
  })().finally(() => {
    flushing = null;
  });
  return flushing;
}
