import {
  contract,
  type Endpoint,
  type Preferences,
  type SetPreferencesBody,
  type SignedInAccount,
  type AccountSession,
  type ApiToken,
  type BulkBody,
  type CalendarFeed,
  type Channel,
  type CreateApiTokenBody,
  type CreateTodoBody,
  type DailyStatistic,
  type Group,
  type Inbox,
  type Insights,
  type Passkey,
  type Reminder,
  type SinceStatistics,
  type Todo,
  type TrashedTodo,
  type TotalStatistics,
} from '@tally/contract';
import { defaultTodo } from '@tally/contract/todo-shape';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { vi } from 'vitest';
import { updated as updatedTodo, viewOf } from './fake-planning';
import { makeToken } from './tokens';

/**
 * The network, stubbed at the fetch boundary only: a route table over a tiny in-memory API.
 * An unstubbed request logs console.error, which fails the test; so does a JSON answer that is
 * not what the contract says that call answers with that status (answerProblem below), so the
 * fake can never teach the web something the server would not say.
 */

interface RecordedCall {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export type RouteHandler = (
  call: RecordedCall,
  params: Record<string, string>,
) => Response | Promise<Response>;

/** What each fake JSON answer holds, read without its stream (which fake timers would stall). */
const sent = new WeakMap<Response, unknown>();

export const json = (body: unknown, status = 200) => {
  const response = new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
  sent.set(response, body);
  return response;
};

/** Whether the call's If-Match names another version than the todo's (the server's 412). */
const stale = (call: RecordedCall, todo: Todo) => {
  const ifMatch = call.headers.get('if-match');
  return ifMatch !== null && ifMatch.trim() !== '*' && ifMatch.trim() !== `"${todo.version}"`;
};

export const noContent = () => new Response(null, { status: 204 });

/** A fetch that never gets an answer: what the browser does when the server is unreachable. */
export const networkFailure = (): never => {
  throw new TypeError('Failed to fetch');
};

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const patternParts = pattern.split('/');
  const pathParts = path.split('/');
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(actual);
    else if (part !== actual) return null;
  }
  return params;
}

/** Every call, those with fewer parameters first: PUT /api/todos/sorts is not PUT /api/todos/:id. */
const endpoints: Endpoint[] = Object.values(contract)
  .flatMap((calls) => Object.values(calls as Record<string, Endpoint>))
  .sort((a, b) => a.path.split(':').length - b.path.split(':').length);

// The formats the contract's answers use, as the server's validator reads them.
FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)) && value.includes('T'));
FormatRegistry.Set('email', (value) => /^[^\s@]+@[^\s@]+$/.test(value));

/** What is wrong with a fake's JSON answer to `method path`, by the contract (null: nothing). */
function answerProblem(method: string, path: string, response: Response) {
  const endpoint = endpoints.find(
    (candidate) => candidate.method === method && matchPath(candidate.path, path),
  );
  if (!endpoint || !sent.has(response)) return null;
  const schema = endpoint.responses[response.status];
  const where = `${method} ${path} answered ${response.status}`;
  // Any call may fail on the server's side; the contract lists the answers it means.
  if (!schema && response.status >= 500) return null;
  if (!schema) return `${where}, a status the contract does not list for ${endpoint.path}`;
  const body: unknown = JSON.parse(JSON.stringify(sent.get(response)));
  let first;
  try {
    [first] = Value.Errors(schema, body);
  } catch (error) {
    return `${where}: its schema could not be checked (${String(error)})`;
  }
  return first ? `${where}: ${first.path || 'the body'} ${first.message}` : null;
}

export function stubFetch(routes: Record<string, RouteHandler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(
      input instanceof Request ? input.url : String(input),
      window.location.origin,
    );
    const method = (init.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      path: url.pathname,
      search: url.searchParams,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      credentials: init.credentials,
    };
    calls.push(call);
    for (const [key, handler] of Object.entries(routes)) {
      const [routeMethod, pattern = ''] = key.split(' ');
      if (routeMethod !== method) continue;
      const params = matchPath(pattern, url.pathname);
      if (!params) continue;
      const response = await handler(call, params);
      const problem = answerProblem(method, url.pathname, response);
      if (problem) console.error(`Fake answer unlike the contract: ${problem}`);
      return response;
    }
    console.error(`Unstubbed request: ${method} ${url.pathname}`);
    return json({ error: 'Not stubbed' }, 501);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const ZERO_TOTALS: TotalStatistics = {
  todosCreated: 0,
  todosCompleted: 0,
  groupsCreated: 0,
  logins: 0,
  todosDeleted: 0,
  googleAuths: 0,
  registrations: 0,
  tokensGenerated: 0,
  refreshTokensCreated: 0,
  todosUpdated: 0,
  groupsUpdated: 0,
  groupsDeleted: 0,
};

export const ZERO_SINCE: SinceStatistics = {
  todosCreated: 0,
  todosCompleted: 0,
  groupsCreated: 0,
  logins: 0,
  todosDeleted: 0,
};

/** n zero-filled daily records, newest first, ending at `end` (YYYY-MM-DD). */
export function dailyRecords(
  n: number,
  values: (index: number) => Partial<DailyStatistic> = () => ({}),
  end = '2026-03-31',
): DailyStatistic[] {
  const last = Date.parse(`${end}T00:00:00Z`);
  return Array.from({ length: n }, (_, index) => ({
    date: new Date(last - index * 86_400_000).toISOString().slice(0, 10),
    todosCreated: 0,
    todosCompleted: 0,
    groupsCreated: 0,
    logins: 0,
    ...values(index),
  }));
}

/**
 * An insights answer with nothing completed: every day from the Monday `weeks - 1` weeks before
 * the week of `to` (YYYY-MM-DD) up to `to`, oldest first, as GET /api/statistics/insights answers.
 */
export function emptyInsights(weeks = 52, to = '2026-03-31'): Insights {
  const last = Date.parse(`${to}T00:00:00Z`);
  const weekday = (new Date(last).getUTCDay() + 6) % 7;
  const days = weekday + 1 + 7 * (weeks - 1);
  const heatmap = Array.from({ length: days }, (_, index) => ({
    date: new Date(last - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10),
    completed: 0,
  }));
  return {
    from: heatmap[0]?.date ?? to,
    to,
    streak: { current: 0, longest: 0, lastDay: null },
    heatmap,
    byWeekday: [0, 0, 0, 0, 0, 0, 0],
    byHour: Array.from({ length: 24 }, () => 0),
    leadTime: { medianHours: null, p75Hours: null, sample: 0 },
    onTime: { onTime: 0, late: 0, rate: null },
    byGroup: [],
    byTag: [],
    week: { thisWeek: 0, lastWeek: 0 },
  };
}

export function makeTodo(overrides: Partial<Todo> & Pick<Todo, 'id' | 'title'>): Todo {
  return defaultTodo({
    created: new Date(Date.UTC(2026, 0, 1, 0, 0, overrides.id)).toISOString(),
    position: -overrides.id,
    ...overrides,
  });
}

/** What the fake GET /api/auth/google/nonce answers. */
export const FAKE_GOOGLE_NONCE = 'fake-google-nonce';

interface BackendOptions {
  /**
   * The session proved the password too long ago: sensitive changes answer 403
   * reauthentication_required until POST /api/account/reauthenticate takes FAKE_PASSWORD.
   */
  proofExpired?: boolean;
  /** The notification channels Settings → Notifications lists. */
  channels?: Channel[];
  todos?: Todo[];
  /** The trash, most recently deleted first. */
  trash?: TrashedTodo[];
  groups?: Group[];
  totals?: TotalStatistics;
  /** The since answer for a given since date. */
  since?: (since: string) => SinceStatistics;
  /** The recent answer for n days. */
  recent?: (days: number) => DailyStatistic[];
  /** The insights answer for n weeks (nothing completed by default). */
  insights?: (weeks: number) => Insights;
  googleClientId?: string | null;
  /** GET /api/config: whether sign-up is open ('open' by default). */
  registration?: 'open' | 'closed';
  /** GET /api/config: whether the server sends e-mail (true by default). */
  passwordResetByEmail?: boolean;
  /** GET /api/config: the single sign-on provider's name (none by default). */
  oidcName?: string | null;
  /** GET /api/config: false for OIDC_ONLY (true by default). */
  passwordSignIn?: boolean;
  /** GET /api/config: whether the first sign-up needs the setup token (false by default). */
  setupTokenRequired?: boolean;
  /** GET /api/config: whether a forward-auth proxy signs people in (false by default). */
  authProxy?: boolean;
  /** The signed-in account (GET /api/account); alice, verified, with a password by default. */
  account?: Partial<SignedInAccount>;
  /** The open sessions; this device and one other by default. */
  sessions?: AccountSession[];
  /** The personal API tokens; none by default. */
  tokens?: ApiToken[];
  /** The passkeys; none by default. */
  passkeys?: Passkey[];
  /** The calendar feed; none by default. */
  calendarFeed?: CalendarFeed | null;
  /** What GET /api/reminders answers (none by default). */
  reminders?: Reminder[];
  /** E-mail to task: by default set up, an address, mail only from the verified address. */
  inbox?: Inbox;
}

/** The token the fake API makes each time (Settings shows it once). */
export const FAKE_API_TOKEN = `tally_pat_${'F'.repeat(43)}`;
const DAY = 24 * 60 * 60 * 1000;
/** The calendar feed's secrets, one per call to make it. */
const feedSecret = (n: number) => String(n).padStart(43, 's');
/** The e-mail-to-task addresses, one per renewal. */
export const inboxAddress = (n: number) => `todo+${'a'.repeat(19)}${n}@tally.example`;

/** The current password of the fake account: any other is refused as the server would. */
export const FAKE_PASSWORD = 'correct horse';

export function makeAccount(overrides: Partial<SignedInAccount> = {}): SignedInAccount {
  return {
    username: 'alice',
    email: 'alice@example.com',
    emailVerified: true,
    hasPassword: true,
    googleLinked: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const FIREFOX_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

export function defaultSessions(): AccountSession[] {
  return [
    {
      id: 'this-session',
      createdAt: '2026-03-02T09:00:00.000Z',
      lastUsedAt: '2026-03-03T10:30:00.000Z',
      userAgent: FIREFOX_ON_WINDOWS,
      current: true,
    },
    {
      id: 'phone-session',
      createdAt: '2026-02-01T08:00:00.000Z',
      lastUsedAt: '2026-02-20T18:15:00.000Z',
      userAgent: SAFARI_ON_IPHONE,
      current: false,
    },
  ];
}

/** An in-memory Tally API: CRUD on todos and groups, fixed statistics, auth that always works. */
export function fakeBackend(
  options: BackendOptions = {},
  overrides: Record<string, RouteHandler> = {},
) {
  const state = {
    todos: [...(options.todos ?? [])],
    trash: [...(options.trash ?? [])],
    groups: [...(options.groups ?? [])],
    nextId: 1000,
    account: makeAccount(options.account),
    preferences: {
      timeZone: options.account?.timeZone ?? null,
      language: options.account?.language ?? null,
      weekStart: options.account?.weekStart ?? null,
    } as Preferences,
    sessions: options.sessions ?? defaultSessions(),
    tokens: options.tokens ?? [],
    passkeys: options.passkeys ?? [],
    calendarFeed: options.calendarFeed ?? null,
    feeds: 0,
    inbox: options.inbox ?? {
      address: inboxAddress(2),
      onlyFromMyAddresses: true,
      verifiedEmail: 'alice@example.com',
    },
    inboxes: 2,
    deleted: false,
    proved: options.proofExpired !== true,
    sorts: {} as Record<string, string>,
  };
  /** The server's guard of recentAuth routes (docs/decisions/071-recent-authentication.md). */
  const proofNeeded = () =>
    state.proved
      ? null
      : json(
          {
            error: "Confirm it's you: enter your password again",
            code: 'reauthentication_required',
          },
          403,
        );
  /** Todos deleted by a bulk call, which a bulk restore brings back. */
  let bin: Todo[] = [];
  const refusePassword = (password: unknown, field: string) =>
    password === FAKE_PASSWORD ? null : json({ error: `${field} is not correct` }, 400);
  const newest = <T extends { id: number }>(items: T[]) => [...items].sort((a, b) => b.id - a.id);

  const defaults: Record<string, RouteHandler> = {
    'GET /api/health': () => json({ status: 'ok' }),
    'GET /api/config': () =>
      json({
        googleClientId: options.googleClientId ?? null,
        registration: options.registration ?? 'open',
        passwordResetByEmail: options.passwordResetByEmail ?? true,
        oidc: options.oidcName ? { name: options.oidcName } : null,
        passwordSignIn: options.passwordSignIn ?? true,
        setupTokenRequired: options.setupTokenRequired ?? false,
        authProxy: options.authProxy ?? false,
      }),
    'POST /api/auth/login': (call) => {
      const body = call.body as { username: string; password: string };
      if (body.password === 'wrong') return json({ error: 'Invalid username or password' }, 401);
      return json({ accessToken: makeToken(body.username) });
    },
    'POST /api/auth/register': (call) => {
      const body = call.body as { username: string };
      if (body.username === 'taken') return json({ error: 'Username is already taken' }, 409);
      return json({ accessToken: makeToken(body.username) }, 201);
    },
    'POST /api/auth/logout': () => noContent(),
    'GET /api/auth/google/nonce': () => json({ nonce: FAKE_GOOGLE_NONCE }),
    'POST /api/auth/refresh': () => json({ error: 'No session' }, 401),
    'POST /api/auth/verify-email': () => noContent(),
    'POST /api/auth/verify-email/account': () =>
      json({ username: 'alice', email: 'alice@example.com' }),
    'POST /api/auth/password-reset': () => new Response(null, { status: 202 }),
    'POST /api/auth/password-reset/confirm': () => noContent(),
    'GET /api/account': () => json({ ...state.account, ...state.preferences }),
    'PATCH /api/account/preferences': (call) => {
      state.preferences = { ...state.preferences, ...(call.body as SetPreferencesBody) };
      return json(state.preferences);
    },
    'PUT /api/account/password': (call) => {
      const body = call.body as { currentPassword: string };
      return refusePassword(body.currentPassword, 'currentPassword') ?? noContent();
    },
    'PUT /api/account/email': (call) => {
      const body = call.body as { email: string; currentPassword: string };
      const refusal = refusePassword(body.currentPassword, 'currentPassword');
      if (refusal) return refusal;
      state.account = { ...state.account, email: body.email, emailVerified: false };
      return json(state.account);
    },
    'POST /api/account/verification': () => new Response(null, { status: 202 }),
    'POST /api/account/reauthenticate': (call) => {
      const refused = refusePassword((call.body as { password?: string }).password, 'password');
      if (refused) return refused;
      state.proved = true;
      return noContent();
    },
    'POST /api/account/passkeys/reauthenticate/options': () =>
      json({ challenge: 'c'.repeat(43), rpId: 'localhost', userVerification: 'required' }),
    // Any answer of the (stubbed) browser proves it: the server's checks are tested in server/.
    'POST /api/account/passkeys/reauthenticate': () => {
      state.proved = true;
      return noContent();
    },
    'POST /api/account/google': () => {
      const refused = proofNeeded();
      if (refused) return refused;
      state.account = { ...state.account, googleLinked: true };
      return json(state.account);
    },
    'DELETE /api/account/google': () => {
      const refused = proofNeeded();
      if (refused) return refused;
      state.account = { ...state.account, googleLinked: false };
      return noContent();
    },
    'GET /api/account/sessions': () => json(state.sessions),
    'DELETE /api/account/sessions': () => {
      state.sessions = state.sessions.filter((session) => session.current);
      return noContent();
    },
    'DELETE /api/account/sessions/:id': (_call, { id }) => {
      if (!state.sessions.some((session) => session.id === id)) {
        return json({ error: 'Session not found' }, 404);
      }
      state.sessions = state.sessions.filter((session) => session.id !== id);
      return noContent();
    },
    'GET /api/account/tokens': () => json(state.tokens),
    // Settings' Import section lists the account's imports; the fake account has made none.
    'GET /api/imports': () => json([]),
    'POST /api/account/tokens': (call) => {
      const refused = proofNeeded();
      if (refused) return refused;
      const body = call.body as CreateApiTokenBody;
      const now = Date.now();
      const token: ApiToken = {
        id: (state.nextId += 1),
        name: body.name,
        scope: body.scope,
        createdAt: new Date(now).toISOString(),
        lastUsedAt: null,
        expiresAt:
          body.expiresInDays === null
            ? null
            : new Date(now + body.expiresInDays * DAY).toISOString(),
      };
      state.tokens = [token, ...state.tokens];
      return json({ ...token, token: FAKE_API_TOKEN }, 201);
    },
    'DELETE /api/account/tokens/:id': (_call, { id }) => {
      if (!state.tokens.some((token) => token.id === Number(id))) {
        return json({ error: 'Token not found' }, 404);
      }
      state.tokens = state.tokens.filter((token) => token.id !== Number(id));
      return noContent();
    },
    // Two-factor codes off: Settings shows the section; its flows are covered by e2e/tests/two-factor.spec.ts.
    'GET /api/account/two-factor': () =>
      json({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 }),
    'GET /api/account/passkeys': () => json(state.passkeys),
    'PATCH /api/account/passkeys/:id': (call, { id }) => {
      const passkey = state.passkeys.find((p) => p.id === Number(id));
      if (!passkey) return json({ error: 'Passkey not found' }, 404);
      const renamed = { ...passkey, name: (call.body as { name: string }).name };
      state.passkeys = state.passkeys.map((p) => (p.id === passkey.id ? renamed : p));
      return json(renamed);
    },
    'DELETE /api/account/passkeys/:id': (_call, { id }) => {
      const refused = proofNeeded();
      if (refused) return refused;
      if (!state.passkeys.some((passkey) => passkey.id === Number(id))) {
        return json({ error: 'Passkey not found' }, 404);
      }
      state.passkeys = state.passkeys.filter((passkey) => passkey.id !== Number(id));
      return noContent();
    },
    'GET /api/account/calendar': () => json(state.calendarFeed),
    'POST /api/account/calendar': (call) => {
      const refused = proofNeeded();
      if (refused) return refused;
      state.feeds += 1;
      state.calendarFeed = {
        path: `/api/calendar/${feedSecret(state.feeds)}.ics`,
        timeZone: call.headers.get('x-time-zone') ?? 'UTC',
        createdAt: '2026-03-04T05:06:07.000Z',
      };
      return json(state.calendarFeed, 201);
    },
    'GET /api/account/inbox': () => json(state.inbox),
    'POST /api/account/inbox/renew': () => {
      state.inboxes += 1;
      state.inbox = { ...state.inbox, address: inboxAddress(state.inboxes) };
      return json(state.inbox);
    },
    'PATCH /api/account/inbox': (call) => {
      const body = call.body as { onlyFromMyAddresses: boolean };
      state.inbox = { ...state.inbox, onlyFromMyAddresses: body.onlyFromMyAddresses };
      return json(state.inbox);
    },
    'DELETE /api/account/calendar': () => {
      state.calendarFeed = null;
      return noContent();
    },
    'GET /api/account/export': () =>
      json({
        version: 4,
        exportedAt: '2026-03-04T05:06:07.000Z',
        account: state.account,
        groups: [],
        tags: [],
        todos: [],
        filters: [],
        todoSorts: {},
        completions: [],
        statistics: { totals: ZERO_TOTALS, daily: [] },
      }),
    'DELETE /api/account': (call) => {
      const body = call.body as { password?: string; googleToken?: string };
      if (body.googleToken === undefined) {
        const refusal = refusePassword(body.password, 'password');
        if (refusal) return refusal;
      }
      state.deleted = true;
      return noContent();
    },
    'GET /api/todos': (call) => {
      const list = viewOf(newest(state.todos), call.search.get('view'));
      const limit = call.search.get('limit');
      if (limit === null) return json(list);
      // Opt-in paging: here the cursor is simply where the next page starts.
      const start = Number(call.search.get('cursor') ?? 0);
      const end = start + Number(limit);
      const response = json(list.slice(start, end));
      if (end < list.length) response.headers.set('x-next-cursor', String(end));
      return response;
    },
    'GET /api/todos/sorts': () => json(state.sorts),
    'PUT /api/todos/sorts': (call) => {
      const { view, sort } = call.body as { view: string; sort: string };
      state.sorts[view] = sort;
      return json(state.sorts);
    },
    'GET /api/todos/counts': () => {
      const groups = new Map<number, number>();
      for (const { groupId } of state.todos) {
        if (groupId !== null) groups.set(groupId, (groups.get(groupId) ?? 0) + 1);
      }
      return json({
        all: state.todos.length,
        ungrouped: state.todos.filter((todo) => todo.groupId === null).length,
        groups: [...groups].map(([groupId, count]) => ({ groupId, count })),
      });
    },
    'POST /api/todos': (call) => {
      const todo = defaultTodo({
        ...(call.body as CreateTodoBody),
        id: state.nextId++,
        position: -state.nextId,
        completed: false,
        created: new Date().toISOString(),
      });
      state.todos.push(todo);
      return json(todo, 201);
    },
    'PUT /api/todos/:id': (call, { id }) => {
      const index = state.todos.findIndex((todo) => todo.id === Number(id));
      const existing = state.todos[index];
      if (!existing) return json({ error: 'Todo not found' }, 404);
      if (stale(call, existing)) return json(existing, 412);
      const body = call.body as Omit<Todo, 'id' | 'created'>;
      const updated = { ...updatedTodo(existing, body), version: existing.version + 1 };
      state.todos[index] = updated;
      return json(updated);
    },
    'PATCH /api/todos/:id': (call, { id }) => {
      const index = state.todos.findIndex((todo) => todo.id === Number(id));
      const existing = state.todos[index];
      if (!existing) return json({ error: 'Todo not found' }, 404);
      if (stale(call, existing)) return json(existing, 412);
      const updated = {
        ...existing,
        ...(call.body as Partial<Todo>),
        version: existing.version + 1,
      };
      state.todos[index] = updated;
      return json(updated);
    },
    'POST /api/todos/bulk': (call) => {
      const { ids, action, groupId = null } = call.body as BulkBody;
      const picked = new Set(ids);
      if (action === 'restore') {
        const back = bin.filter((todo) => picked.has(todo.id));
        bin = bin.filter((todo) => !picked.has(todo.id));
        state.todos.push(...back);
        return json(back);
      }
      const mine = state.todos.filter((todo) => picked.has(todo.id));
      if (mine.length !== picked.size) return json({ error: 'Todo not found' }, 404);
      const { versions = {} } = call.body as BulkBody;
      const changedElsewhere = mine.filter(
        (todo) => (versions[String(todo.id)] ?? todo.version) !== todo.version,
      );
      if (changedElsewhere.length > 0) return json(changedElsewhere, 412);
      if (action === 'delete') {
        bin.push(...mine);
        state.todos = state.todos.filter((todo) => !picked.has(todo.id));
        return json(mine);
      }
      const { tag = '', priority = 0, parentId = null } = call.body as BulkBody;
      const hasTag = (todo: Todo) => todo.tags.some((t) => t.toLowerCase() === tag.toLowerCase());
      const change = (todo: Todo): Todo | null => {
        if (action === 'move') return todo.groupId === groupId ? null : { ...todo, groupId };
        if (action === 'tag') return hasTag(todo) ? todo : { ...todo, tags: [...todo.tags, tag] };
        if (action === 'untag') return { ...todo, tags: todo.tags.filter((t) => t !== tag) };
        if (action === 'priority') return { ...todo, priority };
        if (action === 'parent') return { ...todo, parentId };
        const completed = action === 'complete';
        return todo.completed === completed ? null : { ...todo, completed };
      };
      const changed: Todo[] = [];
      state.todos = state.todos.map((todo) => {
        const next = picked.has(todo.id) ? change(todo) : null;
        if (!next) return todo;
        const written = { ...next, version: todo.version + 1 };
        changed.push(written);
        return written;
      });
      return json(changed);
    },
    'DELETE /api/todos/:id': (call, { id }) => {
      const todo = state.todos.find((candidate) => candidate.id === Number(id));
      if (!todo) return json({ error: 'Todo not found' }, 404);
      if (stale(call, todo)) return json(todo, 412);
      state.todos = state.todos.filter((candidate) => candidate !== todo);
      state.trash.unshift({ ...todo, trashedAt: new Date().toISOString() });
      return noContent();
    },
    'GET /api/trash': () => json(state.trash),
    'POST /api/trash/:id/restore': (_call, { id }) => {
      const trashed = state.trash.find((todo) => todo.id === Number(id));
      if (!trashed) return json({ error: 'Todo in the trash not found' }, 404);
      state.trash = state.trash.filter((todo) => todo !== trashed);
      const todo: Todo = { ...trashed };
      delete (todo as Partial<TrashedTodo>).trashedAt;
      state.todos.push(todo);
      return json(todo);
    },
    'DELETE /api/trash/:id': (_call, { id }) => {
      if (!state.trash.some((todo) => todo.id === Number(id))) {
        return json({ error: 'Todo in the trash not found' }, 404);
      }
      state.trash = state.trash.filter((todo) => todo.id !== Number(id));
      return noContent();
    },
    'DELETE /api/trash': () => {
      state.trash = [];
      return noContent();
    },
    'GET /api/todo-groups': () => json(newest(state.groups)),
    'GET /api/tags': () => json([]),
    'GET /api/filters': () => json([]),
    'GET /api/reminders': () => json(options.reminders ?? []),
    'GET /api/notifications/channels': () => json(options.channels ?? []),
    'GET /api/notifications/settings': () =>
      json({ quietHours: null, digestTime: null, timeZone: state.preferences.timeZone ?? 'UTC' }),
    'POST /api/todo-groups': (call) => {
      const group: Group = {
        id: state.nextId++,
        ...(call.body as Omit<Group, 'id' | 'version'>),
        version: 1,
      };
      state.groups.push(group);
      return json(group, 201);
    },
    'PUT /api/todo-groups/:id': (call, { id }) => {
      const index = state.groups.findIndex((group) => group.id === Number(id));
      if (index === -1) return json({ error: 'Group not found' }, 404);
      const updated: Group = {
        id: Number(id),
        ...(call.body as Omit<Group, 'id' | 'version'>),
        version: (state.groups[index]?.version ?? 0) + 1,
      };
      state.groups[index] = updated;
      return json(updated);
    },
    'DELETE /api/todo-groups/:id': (_call, { id }) => {
      state.groups = state.groups.filter((group) => group.id !== Number(id));
      state.todos = state.todos.map((todo) =>
        todo.groupId === Number(id) ? { ...todo, groupId: null } : todo,
      );
      return noContent();
    },
    'GET /api/statistics/total': () => json(options.totals ?? ZERO_TOTALS),
    'GET /api/statistics/since': (call) =>
      json(options.since?.(call.search.get('since') ?? '') ?? ZERO_SINCE),
    'GET /api/statistics/recent': (call) => {
      const days = Number(call.search.get('days'));
      return json(options.recent?.(days) ?? dailyRecords(days));
    },
    'GET /api/statistics/insights': (call) => {
      const weeks = Number(call.search.get('weeks') ?? 52);
      return json(options.insights?.(weeks) ?? emptyInsights(weeks));
    },
  };
  // Overrides are matched first.
  const routes: Record<string, RouteHandler> = { ...overrides };
  for (const [key, handler] of Object.entries(defaults)) routes[key] ??= handler;
  return { state, ...stubFetch(routes) };
}
