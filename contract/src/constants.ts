/**
 * Product constants shared by the server and the web app (docs/product.md, Constants).
 * This module imports nothing, so the browser bundle can use it without pulling in schemas.
 */

export const GROUP_COLORS = [
  '#3B82F6',
  '#EF4444',
  '#10B981',
  '#F59E0B',
  '#8B5CF6',
  '#EC4899',
  '#06B6D4',
  '#84CC16',
] as const;
export type GroupColor = (typeof GROUP_COLORS)[number];
export const DEFAULT_GROUP_COLOR: GroupColor = '#3B82F6';

export const LIMITS = {
  usernameMin: 3,
  usernameMax: 32,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  todoTitleMax: 200,
  todoDescriptionMax: 20_000,
  /** A tag's name: 1-30 characters, no spaces or commas (docs/product.md, Tags). */
  tagNameMax: 30,
  tagsPerTodoMax: 20,
  /** Subtasks nest this many levels at most: a top-level todo and three below it. */
  subtaskLevelsMax: 4,
  groupNameMax: 50,
  recentDaysMax: 365,
  recentDaysDefault: 30,
  rangeDaysMax: 366,
  /** The largest reminder offset: a week before the due time, in minutes. */
  remindMinutesBeforeMax: 10_080,
  /** Reminders one todo may have (e.g. a day before and at the time). */
  remindersPerTodoMax: 5,
  /** An IANA time zone's name (the longest today is 30 characters). */
  timeZoneMax: 64,
  /** A BCP 47 language tag, as browsers send them. */
  languageTagMax: 35,
  /** The longest duration of a todo: a day, in minutes. */
  durationMinutesMax: 1_440,
  /** Largest JSON body the API accepts, in bytes. */
  bodyLimitBytes: 64 * 1024,
} as const;

/** The longest filter query read, in characters. */
export const FILTER_QUERY_MAX = 1000;

/** A tag's name: no spaces, commas or NUL, 1-30 characters (LIMITS.tagNameMax). */
export const TAG_NAME_PATTERN = '^[^\\s,\\u0000]{1,30}$';

/** Strings that reach the database: no NUL characters, which PostgreSQL cannot store. */
export const NO_NUL = '^[^\\u0000]*$';

/**
 * At least one non-blank character, and no NUL: a title, a group's or a token's name. The web's
 * title fields take it as their `pattern`, so the browser refuses what the API would.
 */
export const NOT_BLANK = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

/** A todo's priority: 0 none (the default), 1 low, 2 medium, 3 high. */
export const PRIORITIES = [0, 1, 2, 3] as const;
export type Priority = (typeof PRIORITIES)[number];
/** The words a priority reads as: "High", "Medium", "Low" ("" for none). */
export const PRIORITY_LABELS = ['', 'Low', 'Medium', 'High'] as const;

/**
 * How GET /api/todos?sort= orders the list: created (newest first, as ever), due (soonest
 * first, undated last), priority (highest first), title (A-Z), manual (the dragged order).
 */
export const TODO_SORTS = ['created', 'due', 'priority', 'title', 'manual'] as const;
export type TodoSort = (typeof TODO_SORTS)[number];

/** Letters, digits, '.', '_' and '-' (docs/product.md, Validation). */
export const USERNAME_PATTERN = '^[A-Za-z0-9._-]{3,32}$';

/** The day ranges the statistics screen offers; the first is the default. */
export const STATISTICS_RANGES = [7, 14, 30] as const;
export type StatisticsRange = (typeof STATISTICS_RANGES)[number];

/**
 * The counted events (docs/product.md, Statistics), in the order the statistics answers list
 * them: the daily record's, then the since answer's one more, then the rest of the totals. Each
 * list begins with the one before it; the schemas and every list of events derive from these.
 */
export const DAILY_EVENTS = ['todosCreated', 'todosCompleted', 'groupsCreated', 'logins'] as const;
export const SINCE_EVENTS = [...DAILY_EVENTS, 'todosDeleted'] as const;
export const STATISTIC_EVENTS = [
  ...SINCE_EVENTS,
  'googleAuths',
  'registrations',
  'tokensGenerated',
  'refreshTokensCreated',
  'todosUpdated',
  'groupsUpdated',
  'groupsDeleted',
] as const;
export type DailyEvent = (typeof DAILY_EVENTS)[number];
export type SinceEvent = (typeof SINCE_EVENTS)[number];
export type StatisticEvent = (typeof STATISTIC_EVENTS)[number];

/** Header in which the browser sends its IANA time zone (docs/product.md, Statistics). */
export const TIME_ZONE_HEADER = 'x-time-zone';

/**
 * Names the browser tab that sends a change: a random id per page load. The live event of the
 * change carries it back as `client` (contract/src/live.ts), so the tab that made the change,
 * whose cache already holds it, need not fetch its list again.
 */
export const LIVE_CLIENT_HEADER = 'x-tally-client';
export const LIVE_CLIENT_PATTERN = '^[A-Za-z0-9_-]{8,64}$';

/**
 * A write (POST/PUT/DELETE under /api, auth calls aside) sent with this header runs once: a retry
 * with the same key gets the first answer again for 24 hours (docs/product.md, Offline).
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** How long the server keeps a key's answer. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** Access tokens live 15 minutes (docs/product.md, Sessions). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** How long a proof of the password (or a fresh Google sign-in) allows sensitive changes. */
export const RECENT_AUTH_MINUTES = 5;

/** The auth routes; the refresh cookie is sent to these only. */
export const AUTH_PATH = '/api/auth';
/** Routes under this prefix never carry a bearer token (docs/product.md, API). */
export const AUTH_PATH_PREFIX = `${AUTH_PATH}/`;

/**
 * The MCP endpoint (Model Context Protocol over Streamable HTTP, docs/product.md, AI assistants)
 * and the share target: a page shared to the installed app, or sent by the bookmarklet, opens
 * this path with `title`, `text` and `url` in the query, and the quick add fills with them.
 */
export const MCP_PATH = '/mcp';
export const SHARE_PATH = '/share';

/** Paging of GET /api/todos: the response header naming the next page, and the page sizes. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
export const TODO_PAGE_DEFAULT = 100;
export const TODO_PAGE_MAX = 500;

/** Search (GET /api/todos?q=): the longest query, in characters. */
export const SEARCH_QUERY_MAX = 200;
/** Bulk changes (POST /api/todos/bulk): the most todos one call may name. */
export const BULK_IDS_MAX = 1000;
/** Days a deleted todo stays in the trash before it is purged for good. */
export const TRASH_DAYS = 30;

/**
 * Imports (docs/product.md, Import and export): the file formats POST /api/import reads, and its
 * limits. A file is read whole, so both bound the memory and time of one import.
 */
export const IMPORT_FORMATS = [
  'tally-json',
  'tally-csv',
  'todoist-csv',
  'ticktick-csv',
  'google-tasks-json',
  'vikunja-zip',
  'ics',
  'csv',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_TODOS = 10_000;
/** The todo fields a column of any CSV may become (the `csv` format's mapping). */
export const CSV_MAPPING_FIELDS = [
  'title',
  'description',
  'group',
  'completed',
  'dueDate',
  'dueTime',
  'tags',
  'priority',
  'startDate',
] as const;
export type CsvMappingField = (typeof CSV_MAPPING_FIELDS)[number];

/**
 * Live updates (GET /api/events, docs/product.md, Live updates): the server writes a comment line
 * this often, so a client that hears nothing for two of them knows the stream is dead; streams
 * one user may hold open on one server process.
 */
export const LIVE_HEARTBEAT_SECONDS = 25;
export const LIVE_MAX_STREAMS_PER_USER = 10;

/**
 * OpenID Connect sign-in (docs/decisions/080-openid-connect.md): the callback is a browser
 * navigation, so a failure cannot be a JSON answer. It redirects to the page the flow started
 * from (/login, or /settings for a link or re-authentication) with `?oidc_error={code}`, and the
 * page shows the sentence, `{provider}` replaced by OIDC_NAME.
 */
export const OIDC_FAILURES = {
  provider_error: 'The sign-in was cancelled or refused at {provider} - please try again',
  flow_expired:
    'This sign-in expired or was already used - please start again with Continue with {provider}',
  state_mismatch: 'This sign-in was not started in this browser - please start again',
  invalid_response: 'The answer from {provider} could not be verified - please try again',
  email_exists:
    'An account with this e-mail address already exists - sign in with your password and link {provider} in Settings',
  registration_closed:
    'There is no Tally account for this {provider} account, and sign-up is closed - ask the operator for one',
  no_email: '{provider} did not share a usable e-mail address, which a new account needs',
  email_unverified:
    '{provider} has not verified your e-mail address, which a new account needs - verify it there and try again',
  linked_elsewhere: 'That {provider} account is already linked to another Tally account',
  already_linked: 'Your account is already linked to another {provider} account - unlink it first',
  wrong_account: 'That is not the {provider} account linked to your Tally account',
  session_ended: 'Your session has ended - please sign in again',
  account_disabled: 'This Tally account is disabled - ask the operator of this Tally to enable it',
  unavailable: '{provider} could not be reached - please try again later',
} as const;
export type OidcFailure = keyof typeof OIDC_FAILURES;
/** The query parameter of the redirect that reports an OIDC failure. */
export const OIDC_ERROR_PARAM = 'oidc_error';
/** Minutes between starting an OIDC sign-in and its callback before it expires. */
export const OIDC_FLOW_MINUTES = 10;

/**
 * The ETag of a todo's or group's version, as answered and as If-Match names it
 * (docs/decisions/113-versions-and-if-match.md); here so the web sends it without the schemas.
 */
export const etagOfVersion = (version: number) => `"${version}"`;

/**
 * Refusals a client acts on rather than shows: `reauthentication_required` (prove the password
 * again, POST /api/account/reauthenticate, then retry) and `password_change_required` (the
 * operator's one-time password must be changed first, PUT /api/account/password).
 */
const ACTED_ON_CODES = [
  'reauthentication_required',
  'password_change_required',
  // An admin call from an account that is not an operator: refused, the session stays.
  'operator_only',
] as const;

/**
 * Refusals a client may show in its own words (docs/decisions/178-error-codes.md): what was
 * wrong with the request's `field` (and the `limit` it broke), or with the request as a whole.
 * The sentence in `error` stays the API's English one.
 */
const SHOWN_CODES = [
  'required',
  'unknown_field',
  'wrong_type',
  'empty',
  'too_short',
  'too_long',
  'too_small',
  'too_large',
  'invalid_format',
  'invalid_email',
  'not_allowed',
  'invalid_unicode',
  'invalid_json',
  'body_too_large',
  'unsupported_media_type',
  'not_found',
  'rate_limited',
  'database_unavailable',
  'internal_error',
] as const;

/**
 * Every `code` an error answer may carry: stable, a client may rely on them. Here, not in
 * common.ts, so that the web app reads them without the schemas.
 */
export const ERROR_CODES = [...ACTED_ON_CODES, ...SHOWN_CODES] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
