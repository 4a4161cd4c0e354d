import { Type, type Static } from '@sinclair/typebox';
import { LIMITS, STATISTIC_EVENTS } from './constants.js';
import { GoogleLoginBodySchema } from './auth.js';
import { ErrorSchema, NO_NUL } from './common.js';
import { Nullable } from './nullable.js';
import { RepeatSchema, TodoSortsSchema } from './todos.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';
import { TotalStatisticsSchema } from './statistics.js';

const instant = (description: string) =>
  Type.String({ format: 'date-time', description: `${description} (ISO 8601, UTC)` });

/** The signed-in account as Settings shows it. */
export const AccountSchema = Type.Object(
  {
    username: Type.String(),
    email: Type.String(),
    emailVerified: Type.Boolean({
      description: 'Tally verified the address (a link, a password reset, or Google)',
    }),
    hasPassword: Type.Boolean({ description: 'False for an account made with Google' }),
    googleLinked: Type.Boolean(),
    oidcLinked: Type.Optional(
      Type.Boolean({
        description:
          'An account of the OpenID Connect provider (OIDC_NAME) is linked; always sent by GET /api/account',
      }),
    ),
    createdAt: instant('When the account was made'),
    passwordResetAt: Type.Optional(
      instant(
        'The last password reset by e-mail link, which signed out every device, revoked every API token and turned the calendar feed off; absent when there was none',
      ),
    ),
  },
  { additionalProperties: false },
);
export type Account = Static<typeof AccountSchema>;

/**
 * The account's own preferences, kept for every device and used where no browser is asking (the
 * server's reminders, e-mails, CalDAV and filters read dates in `timeZone`).
 */
export const PreferencesSchema = Type.Object(
  {
    timeZone: Nullable(
      Type.String({
        minLength: 1,
        maxLength: LIMITS.timeZoneMax,
        description:
          'An IANA time zone (e.g. Europe/Berlin); null until set, and then dates are read in UTC. The web app sets it from the browser when it is null.',
      }),
    ),
    language: Nullable(
      Type.String({
        minLength: 2,
        maxLength: LIMITS.languageTagMax,
        description: "A BCP 47 language tag (e.g. de, pt-BR); null follows the browser's languages",
      }),
    ),
    weekStart: Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 6,
        description:
          "The first day of the week, 0 = Sunday .. 6 = Saturday; null follows the language's",
      }),
    ),
  },
  { additionalProperties: false },
);
export type Preferences = Static<typeof PreferencesSchema>;

export const SetPreferencesBodySchema = Type.Partial(PreferencesSchema, {
  additionalProperties: false,
  description: 'Only the preferences sent change; null clears one',
});
export type SetPreferencesBody = Static<typeof SetPreferencesBodySchema>;

/** GET /api/account: the account, its preferences, and whether it may use the admin page. */
export const SignedInAccountSchema = Type.Object(
  {
    ...AccountSchema.properties,
    ...Type.Partial(PreferencesSchema).properties,
    operator: Type.Optional(
      Type.Boolean({
        description:
          'The account may use the admin page (/api/admin): the first account, or one named with `tally admin grant`; always sent by GET /api/account',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SignedInAccount = Static<typeof SignedInAccountSchema>;

const currentPassword = Type.String({
  minLength: 1,
  maxLength: LIMITS.passwordMax,
  pattern: NO_NUL,
  description: "The account's password now",
});

const newPassword = Type.String({
  minLength: LIMITS.passwordMin,
  maxLength: LIMITS.passwordMax,
  pattern: NO_NUL,
});

export const ChangePasswordBodySchema = Type.Object(
  {
    currentPassword,
    newPassword,
    endApiTokensAndFeed: Type.Optional(
      Type.Boolean({
        description:
          'Also revoke every personal API token and turn the calendar feed off (default false)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

export const ChangeEmailBodySchema = Type.Object(
  {
    email: Type.String({
      format: 'email',
      maxLength: LIMITS.emailMax,
      description: 'Unique ignoring case',
    }),
    currentPassword,
  },
  { additionalProperties: false },
);
export type ChangeEmailBody = Static<typeof ChangeEmailBodySchema>;

/** The Google ID-token credential, as for Continue with Google. */
export const LinkGoogleBodySchema = GoogleLoginBodySchema;
export type LinkGoogleBody = Static<typeof LinkGoogleBodySchema>;

/** A proof of identity: the password, or (for an account without one) a Google credential. */
const proofFields = {
  password: Type.Optional(currentPassword),
  googleToken: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 8192,
      description:
        'A fresh Google ID-token credential of the linked Google account; only for an account without a password',
    }),
  ),
};
const proofDescription =
  'Exactly one: the password, or (for an account without one) a Google credential';

export const DeleteAccountBodySchema = Type.Object(proofFields, {
  additionalProperties: false,
  description: proofDescription,
});
export type DeleteAccountBody = Static<typeof DeleteAccountBodySchema>;

export const ReauthenticateBodySchema = Type.Object(proofFields, {
  additionalProperties: false,
  description: proofDescription,
});
export type ReauthenticateBody = Static<typeof ReauthenticateBodySchema>;

/** One signed-in device: a refresh-token family (docs/decisions/045-sessions.md). */
export const SessionSchema = Type.Object(
  {
    id: Type.String(),
    createdAt: instant('Sign-in'),
    lastUsedAt: instant('The last renewal of its access token'),
    userAgent: Type.Union([Type.String(), Type.Null()], {
      description: "The browser's User-Agent at sign-in",
    }),
    current: Type.Boolean({ description: 'The session of the token making this call' }),
  },
  { additionalProperties: false },
);
export type AccountSession = Static<typeof SessionSchema>;

export const SessionListSchema = Type.Array(SessionSchema, {
  description: 'Open sessions, newest first',
});

export const SessionParamsSchema = Type.Object(
  { id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'A session id' }) },
  { additionalProperties: false },
);
export type SessionParams = Static<typeof SessionParamsSchema>;

const count = Type.Integer({ minimum: 0 });

/** Every event counted on one UTC day (days without events are left out). */
export const ExportDaySchema = Type.Object(
  {
    date: Type.String({ description: 'YYYY-MM-DD, a UTC day' }),
    ...(Object.fromEntries(STATISTIC_EVENTS.map((event) => [event, count])) as Record<
      (typeof STATISTIC_EVENTS)[number],
      typeof count
    >),
  },
  { additionalProperties: false },
);
export type ExportDay = Static<typeof ExportDaySchema>;

/**
 * A todo as exported: its fields spelled out rather than taken from TodoSchema, so a field added
 * to the API's todo never breaks an export. Version 2 added the task model's fields (tags,
 * priority, parentId, startDate, position); a version 1 file has none of them and still imports.
 */
export const ExportTodoSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    groupId: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The id of one of the exported groups, or null',
    }),
    completed: Type.Boolean(),
    dueDate: Type.Union([Type.String(), Type.Null()], {
      description: "YYYY-MM-DD in the user's own calendar, or null",
    }),
    dueTime: Type.Union([Type.String(), Type.Null()], { description: 'HH:mm, or null' }),
    repeat: Type.Union([RepeatSchema, Type.Null()]),
    createdAt: instant('When the todo was made'),
    updatedAt: instant('The last change'),
    tags: Type.Array(Type.String(), { description: "Its tags by name (see the export's tags)" }),
    priority: Type.Integer({
      minimum: 0,
      maximum: 3,
      description: '0 none, 1 low, 2 medium, 3 high',
    }),
    parentId: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The id of the exported todo it is a subtask of, or null',
    }),
    startDate: Type.Union([Type.String(), Type.Null()], {
      description: 'YYYY-MM-DD: hidden until this day, or null',
    }),
    position: Type.Number({ description: 'Its place in the manual order among its siblings' }),
    durationMinutes: Type.Optional(
      Type.Union([Type.Integer(), Type.Null()], {
        description: 'How many minutes it takes, or null; absent from older exports',
      }),
    ),
    reminders: Type.Optional(
      Type.Array(Type.Integer(), {
        description:
          'Its reminders in minutes before the due time, largest first (version 4; absent ' +
          'from older exports: none)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ExportTodo = Static<typeof ExportTodoSchema>;

/** One completion of a todo (a repeating todo completes many times), kept after its todo. */
export const ExportCompletionSchema = Type.Object(
  {
    todoId: Type.Integer({ description: 'May name a todo deleted since' }),
    groupId: Type.Union([Type.Integer(), Type.Null()], { description: 'Its group then' }),
    createdAt: instant('When the todo was made'),
    completedAt: instant('When it was completed'),
    dueDate: Type.Union([Type.String(), Type.Null()], { description: 'Its due date then' }),
    onTime: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'Completed by its due date (and time); null without one',
    }),
  },
  { additionalProperties: false },
);

export const EXPORT_VERSION = 4;
/** The export versions POST /api/import reads (format tally-json). */
export const EXPORT_VERSIONS_READ = [1, 2, 3, 4] as const;

/**
 * Everything Tally keeps about an account, to keep or to import elsewhere. Versioned: a later
 * shape gets a new `version`, and an importer reads the versions it knows. No password hash, no
 * token, no session.
 */
export const AccountExportSchema = Type.Object(
  {
    version: Type.Literal(EXPORT_VERSION),
    exportedAt: instant('When the export was made'),
    account: AccountSchema,
    groups: Type.Array(
      Type.Object(
        {
          id: Type.Integer(),
          name: Type.String(),
          color: Type.String({ description: 'Hex colour, one of the 8 swatches' }),
          createdAt: instant('When the group was made'),
        },
        { additionalProperties: false },
      ),
      { description: 'Oldest first; todos name their group by this id' },
    ),
    tags: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          color: Type.Union([Type.String(), Type.Null()], {
            description: 'Hex colour, one of the 8 swatches, or null',
          }),
          createdAt: instant('When the tag was made'),
        },
        { additionalProperties: false },
      ),
      { description: 'Oldest first; todos name their tags by name' },
    ),
    todos: Type.Array(ExportTodoSchema, { description: 'Oldest first' }),
    todoSorts: TodoSortsSchema,
    filters: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          color: Type.String({ description: 'Hex colour, one of the 8 swatches' }),
          query: Type.String({ description: 'The filter query as typed' }),
          position: Type.Integer({ description: 'Its place among the saved filters' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Saved filters (version 3), by position' },
    ),
    completions: Type.Array(ExportCompletionSchema, { description: 'Oldest first' }),
    statistics: Type.Object(
      {
        totals: TotalStatisticsSchema,
        daily: Type.Array(ExportDaySchema, { description: 'Days with events, oldest first' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AccountExport = Static<typeof AccountExportSchema>;

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema };

export const accountApi = defineEndpoints('account', routes.account, {
  get: {
    summary: 'The signed-in account',
    responses: { 200: SignedInAccountSchema, 401: ErrorSchema },
  },
  remove: {
    summary: 'Delete the account and everything it owns, at once and for good',
    description:
      'Needs the password, or for an account without one a fresh Google credential of its linked Google account; an account that signs in only with the OpenID Connect provider sends {} within a few minutes of a fresh sign-in there (POST /api/account/reauthenticate/oidc), else 403 with code reauthentication_required. A wrong password is a 400 (not 401: the session is fine). The username and e-mail address can be registered again.',
    body: DeleteAccountBodySchema,
    responses: { 204: NoContent('Deleted'), ...refusals, 503: ErrorSchema },
  },
  setPreferences: {
    summary: "Change the account's preferences (time zone, language, first day of the week)",
    description:
      'Only the fields sent change. A zone that is not an IANA time zone, or a tag that is not a BCP 47 language tag, is a 400 naming the field. GET /api/account always sends all three (null when unset).',
    body: SetPreferencesBodySchema,
    responses: { 200: PreferencesSchema, 400: ErrorSchema, 401: ErrorSchema },
  },
  changePassword: {
    summary: 'Change the password; every other session of the account ends',
    description:
      'A wrong currentPassword is a 400 naming it. An account without a password (made with Google) sets one through a reset link only: 409. With endApiTokensAndFeed, every personal API token is revoked and the calendar feed turned off too. Ends the one-time password of an account the operator made (code password_change_required).',
    body: ChangePasswordBodySchema,
    responses: { 204: NoContent('Changed'), ...refusals },
  },
  reauthenticate: {
    summary: 'Prove the password again (or a fresh Google sign-in), for sensitive changes',
    description:
      'Calls marked recentAuth (making an API token, linking or unlinking Google, making the calendar feed URL) need a proof from this session in the last few minutes; a refresh never renews it. A wrong password is a 400 naming it (not 401: the session is fine).',
    body: ReauthenticateBodySchema,
    responses: { 204: NoContent('Proved'), ...refusals, 503: ErrorSchema },
  },
  changeEmail: {
    summary: 'Change the e-mail address; it is unverified until its link is followed',
    description:
      'A verification link goes to the new address when e-mail is configured. 409 when the address is taken (ignoring case) or the account has no password.',
    body: ChangeEmailBodySchema,
    responses: { 200: AccountSchema, ...refusals },
  },
  resendVerification: {
    summary: 'Send the verification link again',
    description:
      '3 per hour per account (429 with Retry-After). 409 when the address is already verified; 503 when e-mail is not configured or the mail could not be sent.',
    responses: {
      202: NoContent('Sent'),
      401: ErrorSchema,
      409: ErrorSchema,
      429: ErrorSchema,
      503: ErrorSchema,
    },
  },
  linkGoogle: {
    summary: 'Link a Google account, to sign in with it too',
    description:
      'The credential is checked as for Continue with Google. 409 when that Google account is linked to another Tally account, or this account to another Google account. When Google vouches for the account’s own address, it counts as verified.',
    body: LinkGoogleBodySchema,
    responses: { 200: AccountSchema, ...refusals, 503: ErrorSchema },
  },
  unlinkGoogle: {
    summary: 'Unlink Google; signing in then needs the password',
    description: '409 when the account has no password (it could not sign in any more).',
    responses: { 204: NoContent('Unlinked'), 401: ErrorSchema, 409: ErrorSchema },
  },
  sessions: {
    summary: "The account's open sessions (signed-in devices), newest first",
    responses: { 200: SessionListSchema, 401: ErrorSchema },
  },
  endSession: {
    summary: 'End one session: its refresh cookie and access tokens stop working at once',
    params: SessionParamsSchema,
    responses: { 204: NoContent('Ended'), 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema },
  },
  endOtherSessions: {
    summary: 'End every session of the account except the one making this call',
    responses: { 204: NoContent('Ended'), 401: ErrorSchema },
  },
  export: {
    summary: 'Everything of the account as a JSON file (version 3)',
    description:
      'Sent as an attachment named tally-export-YYYY-MM-DD.json. Holds no password hash and no token. ' +
      "Its shape (this answer's schema) is also published as a plain JSON Schema, " +
      'contract/schemas/tally-export-v3.schema.json ("Tally export, version 3"); POST /api/import ' +
      'reads it back (format tally-json), and version 1 and 2 files too.',
    responses: { 200: AccountExportSchema, 401: ErrorSchema },
  },
});
