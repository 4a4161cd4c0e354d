/**
 * Where each /api call lives: its method and path, and whether it is reachable without a bearer
 * token. Plain data (and `pathOf`, which fills a path in) with no imports, so the browser bundle can build its client from it without
 * the schemas (contract/src/api.ts joins each route with its schemas; the web imports that only
 * as types). Paths use Fastify's `:name` parameters.
 */
export const routes = {
  auth: {
    register: { method: 'POST', path: '/api/auth/register', public: true },
    login: { method: 'POST', path: '/api/auth/login', public: true },
    googleNonce: { method: 'GET', path: '/api/auth/google/nonce', public: true },
    google: { method: 'POST', path: '/api/auth/google', public: true },
    mfa: { method: 'POST', path: '/api/auth/mfa', public: true },
    refresh: { method: 'POST', path: '/api/auth/refresh', public: true },
    logout: { method: 'POST', path: '/api/auth/logout', public: true },
    verifyEmail: { method: 'POST', path: '/api/auth/verify-email', public: true },
    verifyEmailAccount: { method: 'POST', path: '/api/auth/verify-email/account', public: true },
    requestPasswordReset: { method: 'POST', path: '/api/auth/password-reset', public: true },
    resetPassword: { method: 'POST', path: '/api/auth/password-reset/confirm', public: true },
    proxySignIn: { method: 'POST', path: '/api/auth/proxy', public: true },
  },
  account: {
    get: { method: 'GET', path: '/api/account', beforePasswordChange: true },
    remove: { method: 'DELETE', path: '/api/account' },
    setPreferences: { method: 'PATCH', path: '/api/account/preferences' },
    changePassword: { method: 'PUT', path: '/api/account/password', beforePasswordChange: true },
    reauthenticate: { method: 'POST', path: '/api/account/reauthenticate' },
    changeEmail: { method: 'PUT', path: '/api/account/email' },
    resendVerification: { method: 'POST', path: '/api/account/verification' },
    linkGoogle: { method: 'POST', path: '/api/account/google', recentAuth: true },
    unlinkGoogle: { method: 'DELETE', path: '/api/account/google', recentAuth: true },
    sessions: { method: 'GET', path: '/api/account/sessions' },
    endSession: { method: 'DELETE', path: '/api/account/sessions/:id' },
    endOtherSessions: { method: 'DELETE', path: '/api/account/sessions' },
    export: { method: 'GET', path: '/api/account/export' },
  },
  twoFactor: {
    status: { method: 'GET', path: '/api/account/two-factor' },
    setup: { method: 'POST', path: '/api/account/two-factor/setup', recentAuth: true },
    enable: { method: 'POST', path: '/api/account/two-factor', recentAuth: true },
    disable: { method: 'DELETE', path: '/api/account/two-factor', recentAuth: true },
  },
  passkeys: {
    signInOptions: { method: 'POST', path: '/api/auth/passkey/options', public: true },
    signIn: { method: 'POST', path: '/api/auth/passkey', public: true },
    list: { method: 'GET', path: '/api/account/passkeys' },
    registrationOptions: {
      method: 'POST',
      path: '/api/account/passkeys/options',
      recentAuth: true,
    },
    add: { method: 'POST', path: '/api/account/passkeys', recentAuth: true },
    rename: { method: 'PATCH', path: '/api/account/passkeys/:id' },
    remove: { method: 'DELETE', path: '/api/account/passkeys/:id', recentAuth: true },
    reauthenticationOptions: {
      method: 'POST',
      path: '/api/account/passkeys/reauthenticate/options',
    },
    reauthenticate: { method: 'POST', path: '/api/account/passkeys/reauthenticate' },
  },
  /** OpenID Connect sign-in (docs/decisions/080-openid-connect.md). */
  oidc: {
    start: { method: 'POST', path: '/api/auth/oidc/start', public: true },
    /** The provider redirects the browser here (a GET navigation, no bearer token). */
    callback: { method: 'GET', path: '/api/auth/oidc/callback', public: true },
    logout: { method: 'POST', path: '/api/auth/oidc/logout', public: true },
    link: { method: 'POST', path: '/api/account/oidc', recentAuth: true },
    unlink: { method: 'DELETE', path: '/api/account/oidc', recentAuth: true },
    reauthenticate: { method: 'POST', path: '/api/account/reauthenticate/oidc' },
  },
  tokens: {
    list: { method: 'GET', path: '/api/account/tokens' },
    create: { method: 'POST', path: '/api/account/tokens', recentAuth: true },
    revoke: { method: 'DELETE', path: '/api/account/tokens/:id' },
  },
  calendar: {
    get: { method: 'GET', path: '/api/account/calendar' },
    regenerate: { method: 'POST', path: '/api/account/calendar', recentAuth: true },
    remove: { method: 'DELETE', path: '/api/account/calendar' },
    /** The secret in the path is the credential (docs/product.md, Calendar feed). */
    feed: { method: 'GET', path: '/api/calendar/:secret.ics', public: true },
  },
  inbox: {
    get: { method: 'GET', path: '/api/account/inbox' },
    renew: { method: 'POST', path: '/api/account/inbox/renew' },
    update: { method: 'PATCH', path: '/api/account/inbox' },
  },
  todos: {
    list: { method: 'GET', path: '/api/todos' },
    counts: { method: 'GET', path: '/api/todos/counts' },
    create: { method: 'POST', path: '/api/todos', offline: true },
    get: { method: 'GET', path: '/api/todos/:id' },
    update: { method: 'PUT', path: '/api/todos/:id', offline: true },
    patch: { method: 'PATCH', path: '/api/todos/:id', offline: true },
    move: { method: 'POST', path: '/api/todos/:id/move', offline: true },
    sorts: { method: 'GET', path: '/api/todos/sorts' },
    setSort: { method: 'PUT', path: '/api/todos/sorts', offline: true },
    skip: { method: 'POST', path: '/api/todos/:id/skip', offline: true },
    remove: { method: 'DELETE', path: '/api/todos/:id', offline: true },
    bulk: { method: 'POST', path: '/api/todos/bulk' },
  },
  tags: {
    list: { method: 'GET', path: '/api/tags' },
    update: { method: 'PUT', path: '/api/tags/:name' },
    remove: { method: 'DELETE', path: '/api/tags/:name' },
  },
  trash: {
    list: { method: 'GET', path: '/api/trash' },
    restore: { method: 'POST', path: '/api/trash/:id/restore' },
    remove: { method: 'DELETE', path: '/api/trash/:id' },
    empty: { method: 'DELETE', path: '/api/trash' },
  },
  reminders: {
    pushKey: { method: 'GET', path: '/api/push/key' },
    subscribe: { method: 'POST', path: '/api/push/subscriptions' },
    unsubscribe: { method: 'DELETE', path: '/api/push/subscriptions' },
    recent: { method: 'GET', path: '/api/reminders' },
  },
  /** Notification channels: ntfy, Gotify, Pushover and signed webhooks (docs/decisions/143-notification-channels.md). */
  notifications: {
    list: { method: 'GET', path: '/api/notifications/channels' },
    create: { method: 'POST', path: '/api/notifications/channels' },
    update: { method: 'PATCH', path: '/api/notifications/channels/:id' },
    remove: { method: 'DELETE', path: '/api/notifications/channels/:id' },
    test: { method: 'POST', path: '/api/notifications/channels/:id/test' },
    deliveries: { method: 'GET', path: '/api/notifications/channels/:id/deliveries' },
    redeliver: { method: 'POST', path: '/api/notifications/deliveries/:id/redeliver' },
    settings: { method: 'GET', path: '/api/notifications/settings' },
    updateSettings: { method: 'PATCH', path: '/api/notifications/settings' },
    actionPage: { method: 'GET', path: '/api/notifications/actions', public: true },
    action: { method: 'POST', path: '/api/notifications/actions', public: true },
    unsubscribePage: { method: 'GET', path: '/api/notifications/unsubscribe', public: true },
    unsubscribe: { method: 'POST', path: '/api/notifications/unsubscribe', public: true },
  },
  filters: {
    list: { method: 'GET', path: '/api/filters' },
    create: { method: 'POST', path: '/api/filters' },
    update: { method: 'PUT', path: '/api/filters/:id' },
    remove: { method: 'DELETE', path: '/api/filters/:id' },
    makeFeed: { method: 'POST', path: '/api/filters/:id/calendar' },
    removeFeed: { method: 'DELETE', path: '/api/filters/:id/calendar' },
  },
  groups: {
    list: { method: 'GET', path: '/api/todo-groups' },
    create: { method: 'POST', path: '/api/todo-groups' },
    update: { method: 'PUT', path: '/api/todo-groups/:id' },
    remove: { method: 'DELETE', path: '/api/todo-groups/:id' },
  },
  statistics: {
    total: { method: 'GET', path: '/api/statistics/total' },
    recent: { method: 'GET', path: '/api/statistics/recent' },
    range: { method: 'GET', path: '/api/statistics/range' },
    since: { method: 'GET', path: '/api/statistics/since' },
    insights: { method: 'GET', path: '/api/statistics/insights' },
  },
  transfer: {
    exportCsv: { method: 'GET', path: '/api/todos/export.csv' },
    import: { method: 'POST', path: '/api/import', multipart: true },
    history: { method: 'GET', path: '/api/imports' },
    undo: { method: 'POST', path: '/api/imports/:id/undo' },
  },
  live: {
    events: { method: 'GET', path: '/api/events', stream: true },
  },
  /** The operator's admin page (docs/decisions/131-operator-and-admin-page.md). */
  admin: {
    users: { method: 'GET', path: '/api/admin/users' },
    disable: { method: 'POST', path: '/api/admin/users/:id/disable' },
    enable: { method: 'POST', path: '/api/admin/users/:id/enable' },
    remove: { method: 'DELETE', path: '/api/admin/users/:id' },
    resendVerification: { method: 'POST', path: '/api/admin/users/:id/verification' },
    endSessions: { method: 'DELETE', path: '/api/admin/users/:id/sessions' },
    health: { method: 'GET', path: '/api/admin/health' },
    testEmail: { method: 'POST', path: '/api/admin/test-email' },
    auditLog: { method: 'GET', path: '/api/admin/audit-log' },
  },
  system: {
    config: { method: 'GET', path: '/api/config', public: true },
    health: { method: 'GET', path: '/api/health', public: true },
  },
} as const satisfies Record<string, Record<string, Route>>;

/** A route's path with its `:name` parameters filled in (encoded). */
export function pathOf(route: Pick<Route, 'path'>, params: object = {}): string {
  const values = params as Record<string, unknown>;
  return route.path.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String(values[name])),
  );
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: HttpMethod;
  path: string;
  /** Reachable without a bearer token; every other route needs one. */
  public?: boolean;
  /** The body is multipart/form-data (a file upload), not JSON. */
  multipart?: boolean;
  /** The answer is a stream of server-sent events that stays open, not one JSON body. */
  stream?: boolean;
  /**
   * A sensitive change: the session must have proved the password (or a fresh Google sign-in)
   * within RECENT_AUTH_MINUTES, else 403 with code reauthentication_required
   * (docs/decisions/071-recent-authentication.md). A personal API token never passes.
   */
  recentAuth?: boolean;
  /** Reachable while the account must change its one-time password (everything else: 403). */
  beforePasswordChange?: boolean;
  /**
   * Offline-capable: while the browser is offline the web app's client queues the call
   * (web/src/lib/outbox.ts, sent in order once online) and answers with the result the caller
   * expects, so the screen shows the change at once (docs/product.md, Offline).
   */
  offline?: boolean;
}

export type Routes = typeof routes;
