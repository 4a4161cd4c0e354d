/**
 * Every React Query key, in one place, so that a feature can refresh data another feature
 * shows (deleting a group ungroups todos) without importing it.
 */
export const queryKeys = {
  config: ['config'],
  googleNonce: ['google-nonce'],
  account: ['account'],
  accountSessions: ['account', 'sessions'],
  accountTokens: ['account', 'tokens'],
  notificationChannels: ['notifications', 'channels'],
  notificationSettings: ['notifications', 'settings'],
  notificationDeliveries: (id: number) => ['notifications', 'channels', id, 'deliveries'],
  accountPasskeys: ['account', 'passkeys'],
  /** The import history (GET /api/imports). */
  accountImports: ['account', 'imports'],
  calendarFeed: ['account', 'calendar'],
  inbox: ['account', 'inbox'],
  twoFactor: ['account', 'two-factor'],
  todos: ['todos'],
  /** The views by due date (Today, Upcoming): under todos, so refreshing todos refreshes them. */
  todoViews: ['todos', 'view'],
  /** Keyed by the browser's date too: after midnight the view is another day's, fetched anew. */
  todoView: (view: 'today' | 'upcoming', day: string) => ['todos', 'view', view, day],
  /** The deleted todos (/trash). */
  trash: ['trash'],
  /** The server's matches for a search's words (under todos, refreshed with them). */
  todoSearches: ['todos', 'search'],
  todoSearch: (words: string) => ['todos', 'search', words],
  /**
   * The /todos tab counts from the server, used while the list is still arriving page by page;
   * apart from `todos`, whose queries all hold lists of todos.
   */
  todoCounts: ['todo-counts'],
  /** The sort the user chose per view, kept on the server (GET /api/todos/sorts). */
  todoSorts: ['todo-sorts'],
  groups: ['groups'],
  /** The user's saved filters (GET /api/filters). */
  savedFilters: ['saved-filters'],
  /** The user's tags with their counts (GET /api/tags). */
  tags: ['tags'],
  statistics: ['statistics'],
  statisticsTotal: ['statistics', 'total'],
  statisticsRecent: (days: number) => ['statistics', 'recent', days],
  statisticsSince: (since: string) => ['statistics', 'since', since],
  statisticsInsights: (weeks: number) => ['statistics', 'insights', weeks],
  /** The admin page: every admin action refreshes all three. */
  admin: ['admin'],
  adminUsers: ['admin', 'users'],
  adminHealth: ['admin', 'health'],
  adminAuditLog: ['admin', 'audit-log'],
} as const;
