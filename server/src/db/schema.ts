import type { Generated, Kysely, Selectable, Transaction } from 'kysely';

/**
 * The tables, as both dialects store them. Times are epoch milliseconds (integers) and booleans
 * are 0/1 integers, so SQLite and PostgreSQL read and sort them the same way.
 */
export interface Database {
  users: UsersTable;
  todo_groups: TodoGroupsTable;
  saved_filters: SavedFiltersTable;
  todos: TodosTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  todo_completions: TodoCompletionsTable;
  email_tokens: EmailTokensTable;
  api_tokens: ApiTokensTable;
  calendar_feeds: CalendarFeedsTable;
  statistic_events: StatisticEventsTable;
  statistic_totals: StatisticTotalsTable;
  statistic_hours: StatisticHoursTable;
  trashed_todos: TrashedTodosTable;
  imports: ImportsTable;
  import_todos: ImportTodosTable;
  import_groups: ImportGroupsTable;
  job_leases: JobLeasesTable;
  idempotency_keys: IdempotencyKeysTable;
  reminders: RemindersTable;
  push_subscriptions: PushSubscriptionsTable;
  notification_channels: NotificationChannelsTable;
  notification_deliveries: NotificationDeliveriesTable;
  notification_settings: NotificationSettingsTable;
  reminder_action_uses: ReminderActionUsesTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  oidc_flows: OidcFlowsTable;
  tags: TagsTable;
  todo_tags: TodoTagsTable;
  caldav_changes: CaldavChangesTable;
  caldav_change_marks: CaldavChangeMarksTable;
  audit_log: AuditLogTable;
  inbox_addresses: InboxAddressesTable;
  inbox_messages: InboxMessagesTable;
}

interface UsersTable {
  id: Generated<number>;
  username: string;
  username_lower: string;
  email: string;
  email_lower: string;
  /** Null for accounts that only sign in with Google. */
  password_hash: string | null;
  google_subject: string | null;
  created_at: number;
  /** When Tally verified the e-mail address (a link, or Google vouching); null until then. */
  email_verified_at: number | null;
  /** 1 while the password is one the operator generated: the next sign-in must change it. */
  password_must_change: Generated<number>;
  /** The last password reset by e-mail link (it ended every session, API token and the feed). */
  password_reset_at: number | null;
  /** The OpenID Connect identity (OIDC_ISSUER's `iss` and `sub`); both null when unlinked. */
  oidc_issuer: string | null;
  oidc_subject: string | null;
  /** The sort chosen per view, as JSON (contract's TodoSortsSchema); null: none chosen. */
  todo_sorts: string | null;
  /** 1 for an operator: the admin page is theirs (migration 0020). */
  operator: Generated<number>;
  /** When an operator disabled the account: no sign-in, token or CalDAV works; null otherwise. */
  disabled_at: Generated<number | null>;
  /** The IANA zone the server reads the account's dates in; null until the web app sets it. */
  time_zone: Generated<string | null>;
  /** A BCP 47 language tag; null follows the browser. */
  language: Generated<string | null>;
  /** 0 = Sunday .. 6; null follows the language. */
  week_start: Generated<number | null>;
}

/** One admin action (migration 0020); the names stay when the accounts are deleted. */
interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_id: number | null;
  actor_name: string;
  action: string;
  /** The account acted on; null for actions on the server (a test e-mail). */
  target_name: string | null;
}

/** A user's saved filter query (migration 0026). */
interface SavedFiltersTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  color: string;
  query: string;
  /** Its place in the sidebar, lower first. */
  position: number;
  created_at: number;
  version: Generated<number>;
  /** Its own calendar feed's secret (/api/calendar/{secret}.ics); null: none. */
  feed_secret: Generated<string | null>;
  feed_time_zone: Generated<string | null>;
  feed_created_at: Generated<number | null>;
  /** As calendar_feeds' content_hash and content_changed_at. */
  feed_content_hash: Generated<string | null>;
  feed_changed_at: Generated<number | null>;
}

interface TodoGroupsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  name_lower: string;
  color: string;
  created_at: number;
  /** The CalDAV collection name a client chose with MKCALENDAR; null: group-{id} (migration 0017). */
  dav_name: Generated<string | null>;
  /** 1 when made, one more with every write (migration 0019): the ETag of If-Match. */
  version: Generated<number>;
}

interface TodosTable {
  id: Generated<number>;
  user_id: number;
  group_id: number | null;
  title: string;
  description: string | null;
  completed: number;
  created_at: number;
  updated_at: number;
  /** YYYY-MM-DD in the user's own calendar, or null. */
  due_date: string | null;
  /** HH:mm on the due date, or null. */
  due_time: string | null;
  /** The repeat rule as JSON (contract's RepeatSchema), or null. */
  repeat: string | null;
  /** The source row of an imported todo, hashed (migration 0008); null for todos made here. */
  import_key: string | null;
  /**
   * Its reminders as a JSON array of minutes before the due time (0: at it), largest first,
   * de-duplicated, at most five (migration 0030); null for none.
   */
  reminder_minutes: string | null;
  /**
   * The words of title and description as search compares them (shared/search-text.ts), written
   * with every change of either (migration 0009). Not optional here, so no insert forgets it.
   */
  search_text: string;
  /** 0 none, 1 low, 2 medium, 3 high (migration 0016). */
  priority: Generated<number>;
  /** The todo it is a subtask of, or null at the top level. */
  parent_id: number | null;
  /** YYYY-MM-DD: hidden from Today and Upcoming before this day; null for none. */
  start_date: string | null;
  /** How many minutes it takes, from its due time (migration 0027); null for none. */
  duration_minutes: number | null;
  /**
   * The manual order among its siblings, lower first: -created_at until moved (a row written
   * without it, as some tests do, sorts with 0).
   */
  position: Generated<number>;
  /** The iCalendar UID a CalDAV client gave it; null: tally-{id} (migration 0017). */
  uid: Generated<string | null>;
  /** The CalDAV resource name a client chose, when it is not {uid}.ics. */
  dav_name: Generated<string | null>;
  /** What Tally does not model of its VTODO, kept for the clients (server/src/caldav/vtodo.ts). */
  ics_extra: Generated<string | null>;
  /** A RRULE from a CalDAV client that Tally cannot represent (RFC 5545 text), shown read-only. */
  custom_repeat: Generated<string | null>;
  /** The UID a CalDAV subtask names as its parent while no todo holds it (migration 0028). */
  pending_parent_uid: Generated<string | null>;
  /** 1 when made, one more with every write from any path (migration 0019): the ETag of If-Match. */
  version: Generated<number>;
}

/**
 * One change of a todo, written by triggers (migration 0017): its id is CalDAV's sync token, and
 * it keeps the group and resource name the todo had then (a deleted todo is named by it).
 */
interface CaldavChangesTable {
  id: Generated<number>;
  user_id: number;
  todo_id: number;
  group_id: number | null;
  name: string;
}

/** Where caldav_changes stood at a time (migration 0018): what pruning it goes by. */
interface CaldavChangeMarksTable {
  /** Epoch ms. */
  at: number;
  /** The log's highest id then. */
  last_id: number;
}

/** A user's tag (migration 0016): unique by lower-case name, the first spelling kept. */
/** An account's e-mail-to-task address (migrations/0022-inbox.ts). */
interface InboxAddressesTable {
  user_id: number;
  secret: string;
  only_from_my_addresses: Generated<number>;
  created_at: number;
}

/** A message the inbox fetcher took, by `{uidvalidity}:{uid}`, so none makes two todos. */
interface InboxMessagesTable {
  message_key: string;
  todo_id: number | null;
  taken_at: number;
}

interface TagsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  name_lower: string;
  /** One of the 8 swatches, or null. */
  color: string | null;
  created_at: number;
}

interface TodoTagsTable {
  todo_id: number;
  tag_id: number;
}

/** A deleted todo, kept 30 days (migration 0009). */
interface TrashedTodosTable {
  /** The todo's own id, which it gets back on restore. */
  id: number;
  user_id: number;
  trashed_at: number;
  /** The todos row (without id and user_id) as JSON. */
  todo: string;
  /** The parent it had (migration 0016): restoring a todo brings its trashed subtree back. */
  parent_id: number | null;
}

/** One import that created something (migration 0021). */
interface ImportsTable {
  id: Generated<number>;
  user_id: number;
  format: string;
  file_name: string | null;
  created_at: number;
  todos: number;
  groups: number;
  undone_at: number | null;
}

/** A todo an import created, at the version it had when the import wrote it. */
interface ImportTodosTable {
  import_id: number;
  todo_id: number;
  version: number;
}

/** A group an import created. */
interface ImportGroupsTable {
  import_id: number;
  group_id: number;
}

/** Who runs a periodic job, until when, and when it last ran (migration 0009). */
interface JobLeasesTable {
  name: string;
  /** The process holding the lease; null when none ever did. */
  holder: string | null;
  /** The lease is free from this time (epoch ms) on. */
  lease_until: number;
  last_run_at: number | null;
  runs: number;
}

/** The next occurrence of each of a todo's reminders (one row per offset, migration 0030). */
interface RemindersTable {
  todo_id: number;
  /** The reminder it is: this many minutes before the due time. */
  minutes_before: number;
  user_id: number;
  /** The instant it goes out: the due date and time in time_zone, less the offset. */
  fire_at: number;
  /** The occurrence it is for (a repeating todo's due date moves on after it). */
  due_date: string;
  due_time: string;
  /** The IANA zone the due time was meant in (the browser's, when it was last scheduled). */
  time_zone: string;
  /** When a poller claimed it (it goes out once); null while it waits. */
  sent_at: number | null;
  /** When its Web Push goes out, claimed inside quiet hours; null when it went (or none waits). */
  push_at: Generated<number | null>;
}

/** A browser that turned reminders on (a Web Push subscription). */
interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  /** The push service URL: checked to be https on a public address (reminders/push-endpoint.ts). */
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url, to encrypt each message. */
  p256dh: string;
  auth: string;
  created_at: number;
}

interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  /** SHA-256 of the token; the token itself is only ever in the user's cookie. */
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

/** One completion of a todo, for the insights (repeating todos complete many times). */
interface TodoCompletionsTable {
  id: Generated<number>;
  user_id: number;
  /** No foreign key: a completion outlives its todo, as its statistics event does. */
  todo_id: number;
  /** The group at completion; null when none, or when the group is deleted since. */
  group_id: number | null;
  /** When the todo was created. */
  created_at: number;
  completed_at: number;
  /** The due date it had when completed, if any. */
  due_date: string | null;
  /** 1 when completed by its due date (and time), 0 when late, null without a due date. */
  on_time: number | null;
}

/** A signed-in device: one refresh-token family (refresh_tokens.family_id = sessions.id). */
interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  /** The last renewal (refresh), not every request. */
  last_used_at: number;
  /** The absolute end: sign-in plus SESSION_MAX_DAYS; renewals never move it. */
  expires_at: number;
  /** Logout, "end session", reuse detection, password change; null while it lasts. */
  ended_at: number | null;
  user_agent: string | null;
  /** The last proof of the password or a fresh Google sign-in (sign-in, re-authentication). */
  reauthenticated_at: number | null;
  /** 1 while the account must choose a new password: only that call and a few reads pass. */
  password_change_required: Generated<number>;
  /** The ID token of an OpenID Connect sign-in: the hint of RP-initiated logout. */
  oidc_id_token: string | null;
}

/**
 * An OpenID Connect flow started in a browser (sign-in, link or re-authentication), keyed by the
 * SHA-256 of the random id in that browser's cookie; the callback deletes it (one use).
 */
interface OidcFlowsTable {
  id: string;
  purpose: 'login' | 'link' | 'reauthenticate';
  /** The signed-in account and session of a link or re-authentication; null for a sign-in. */
  user_id: number | null;
  session_id: string | null;
  state: string;
  nonce: string;
  code_verifier: string;
  /** The web app's path to land on afterwards. */
  return_to: string;
  expires_at: number;
}

/** The token of an e-mailed link: verification (7 days) or password reset (1 hour), single-use. */
interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'verify-email' | 'reset-password';
  /** SHA-256 of the token; the token itself is only in the e-mail. */
  token_hash: string;
  /** The address the link went to: it proves that address only. */
  email_lower: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A personal API token (docs/decisions/050-api-tokens-and-calendar-feed.md); revoked = deleted. */
interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  scope: 'read' | 'read-write';
  /** SHA-256 (hex) of the token; the token itself is shown once and kept nowhere. */
  token_hash: string;
  created_at: number;
  /** Null: it never expires. */
  expires_at: number | null;
  /** Updated at most once a minute; null until its first use. */
  last_used_at: number | null;
  /** The saved filter whose todos alone it shows (read-only); null: not limited (migration 0026). */
  filter_id: Generated<number | null>;
}

/** An account's private calendar feed; one at most. */
interface CalendarFeedsTable {
  user_id: number;
  /** The random secret of the feed URL (/api/calendar/{secret}.ics). */
  secret: string;
  /** The IANA zone of timed events, from the browser when the URL was made. */
  time_zone: string;
  created_at: number;
  /**
   * The version (a hash of its data, calendar/feed-cache.ts) of the last feed served, and when it
   * last changed (its Last-Modified).
   */
  content_hash: string | null;
  content_changed_at: number | null;
}

interface StatisticEventsTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  occurred_at: number;
}

/** All-time count of one event type for one user (a roll-up of statistic_events). */
interface StatisticTotalsTable {
  user_id: number;
  type: string;
  count: number;
}

/** Counts of the daily event types for one user in one UTC hour (epoch ms / 3,600,000). */
export interface StatisticHoursTable {
  user_id: number;
  hour: number;
  todos_created: number;
  todos_completed: number;
  groups_created: number;
  logins: number;
  todos_deleted: number;
}

/** Where a query runs: the database or a transaction on it (functions that query take either). */
export type Db = Kysely<Database> | Transaction<Database>;

/** A write's Idempotency-Key and its stored answer (migration 0010), kept 24 hours. */
interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  method: string;
  path: string;
  /** SHA-256 of method, path and body: the same key with another request is refused. */
  request_hash: string;
  /** Null while the first request with this key is still running. */
  status: number | null;
  response_body: string | null;
  /** The stored answer's ETag header, if it had one. */
  etag: string | null;
  created_at: number;
}

export type TodoRow = Selectable<TodosTable>;
export type TodoGroupRow = Selectable<TodoGroupsTable>;
export type SavedFilterRow = Selectable<SavedFiltersTable>;

/** An account's authenticator app (migration 0014, docs/decisions/081-two-factor-codes.md). */
interface TwoFactorTable {
  user_id: number;
  /** The TOTP secret, encrypted (two-factor/secret-box.ts); never sent after setup. */
  secret: string;
  created_at: number;
  /** Null while the setup waits for its first code. */
  enabled_at: number | null;
  /** The time step of the last accepted code: a code of this step or older is refused. */
  last_step: number | null;
  /** Wrong codes since `failures_since` (the per-account limit). */
  failures: Generated<number>;
  failures_since: number | null;
}

/** One-time recovery codes, argon2id-hashed (migration 0014). */
interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

/** The second step of a sign-in (migration 0014): 5 minutes, one browser, one session. */
interface MfaChallengesTable {
  token_hash: string;
  user_id: number;
  /** SHA-256 of the cookie the browser got with the login answer. */
  browser_hash: string;
  /** Which sign-in it continues ('password', 'google', 'oidc'): its events and proofs. */
  kind: string;
  expires_at: number;
  attempts: Generated<number>;
}

/** A WebAuthn credential of an account (docs/decisions/082-passkeys.md). */
interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url; unique across every account. */
  credential_id: string;
  /** The credential's COSE public key, base64url. */
  public_key: string;
  /** The signature counter last seen (0 for authenticators that keep none). */
  counter: number;
  /** The transports the browser reported, comma-separated; null when it said none. */
  transports: string | null;
  /** The WebAuthn user.id given to the authenticator (random, base64url). */
  user_handle: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn challenge handed to one browser: single use, 5 minutes. */
interface WebauthnChallengesTable {
  /** base64url, as it comes back in clientDataJSON. */
  challenge: string;
  /** SHA-256 (hex) of the browser's challenge cookie. */
  binding_hash: string;
  purpose: 'sign-in' | 'register' | 'reauthenticate';
  /** The account a registration or re-authentication is for; null for a sign-in. */
  user_id: number | null;
  /** A registration's WebAuthn user.id, kept with the passkey it makes; null otherwise. */
  user_handle: string | null;
  expires_at: number;
}

/** A user's ntfy, Gotify, Pushover or webhook target (migrations/0024-notification-channels.ts). */
interface NotificationChannelsTable {
  id: Generated<number>;
  user_id: number;
  kind: 'email' | 'ntfy' | 'gotify' | 'pushover' | 'webhook';
  name: string;
  url: string | null;
  topic: string | null;
  user_key: string | null;
  /** The token or webhook signing secret: sent to the receiver, never answered or logged. */
  secret: string | null;
  reminders: number;
  enabled: number;
  /** When the run of failures under way began; null after a success. */
  failing_since: number | null;
  disabled_reason: string | null;
  created_at: number;
}

/** Quiet hours and the daily digest (migration 0029): minutes after midnight, user's zone. */
interface NotificationSettingsTable {
  user_id: number;
  /** Both null: no quiet hours. */
  quiet_start: number | null;
  quiet_end: number | null;
  /** Null: no digest (the default). */
  digest_minute: number | null;
  /** The user's local date (YYYY-MM-DD) of the last digest sent. */
  digest_sent_on: string | null;
}

/** A reminder action link that was used: its token's id, kept until the token expires. */
interface ReminderActionUsesTable {
  token_id: string;
  used_at: number;
  expires_at: number;
}

/** One message to one channel, and its attempts so far. */
interface NotificationDeliveriesTable {
  id: Generated<number>;
  channel_id: number;
  /** The webhook-id: the same on every attempt, so a receiver can drop repeats. */
  message_id: string;
  event: string;
  /** The message as JSON (WebhookPayload). */
  payload: string;
  state: 'pending' | 'sent' | 'failed' | 'dropped';
  attempt: number;
  next_attempt_at: number | null;
  /** A process sending it holds it until then; another may take it over after. */
  lease_until: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  /** After this it is no use any more (a reminder an hour late); null: webhook retry schedule. */
  expires_at: number | null;
  created_at: number;
}
