import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema, IdParamsSchema } from './common.js';
import { defineEndpoints, NoContent } from './endpoint.js';
import { routes } from './routes.js';

/**
 * The admin page's calls (docs/product.md, Admin page; docs/decisions/131-operator-and-admin-page.md):
 * for an operator only, every other account gets 403 on each. Every action is written to the
 * audit log, which the page shows.
 */

const instant = (description: string) =>
  Type.String({ format: 'date-time', description: `${description} (ISO 8601, UTC)` });
const nullableInstant = (description: string) =>
  Type.Union([instant(description), Type.Null()], { description: `${description}, or null` });

/** The audit log's actions, as the page names them. */
export const ADMIN_ACTIONS = [
  'disable',
  'enable',
  'delete',
  'resend-verification',
  'end-sessions',
  'test-email',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** How many audit log entries GET /api/admin/audit-log answers, newest first. */
export const AUDIT_LOG_PAGE = 100;

export const AdminUserSchema = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    email: Type.String(),
    createdAt: instant('When the account was made'),
    lastSeenAt: nullableInstant(
      'Its last sign-in or session renewal, or use of a personal API token or passkey',
    ),
    emailVerified: Type.Boolean(),
    twoFactor: Type.Boolean({ description: 'Two-factor codes are on' }),
    todoCount: Type.Integer({ minimum: 0 }),
    disabled: Type.Boolean({ description: 'It cannot sign in, nor use tokens or CalDAV' }),
    operator: Type.Boolean({ description: 'It may use the admin page' }),
  },
  { additionalProperties: false },
);
export type AdminUser = Static<typeof AdminUserSchema>;

const check = (description: string) =>
  Type.Object(
    {
      ok: Type.Boolean(),
      detail: Type.String({ description }),
    },
    { additionalProperties: false },
  );

export const AdminHealthSchema = Type.Object(
  {
    database: check('The dialect, and the error when it does not answer'),
    redis: Type.Union([check('Whether it answers'), Type.Null()], {
      description: 'Null when REDIS_URL is not set',
    }),
    mail: Type.Union([check('Whether the SMTP server accepts a connection'), Type.Null()], {
      description: 'Null when SMTP_URL is not set',
    }),
    imap: Type.Union(
      [
        Type.Object(
          {
            ok: Type.Boolean({
              description:
                "A process holds the fetcher's lease and, when it is this one, is connected",
            }),
            leaseHeld: Type.Boolean({ description: "A process holds the fetcher's lease now" }),
            here: Type.Boolean({ description: 'The process that answered holds it' }),
            connected: Type.Boolean({
              description: 'The answering process is logged in to the mailbox now',
            }),
            lastMailAt: nullableInstant('When the answering process last took a message'),
            lastError: Type.Union(
              [
                Type.Object(
                  {
                    at: instant('When'),
                    message: Type.String({ description: 'What failed, without the password' }),
                  },
                  { additionalProperties: false },
                ),
                Type.Null(),
              ],
              { description: 'The last failure of the fetcher in the answering process' },
            ),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: "E-mail to task's IMAP fetcher; null when INBOX_IMAP_URL is not set" },
    ),
    jobs: Type.Object(
      {
        lagSeconds: Type.Integer({
          minimum: 0,
          description: 'How late the oldest due reminder not yet sent is (0 when none waits)',
        }),
        background: Type.Array(
          Type.Object(
            {
              name: Type.String(),
              lastRunAt: nullableInstant('Its last completed run'),
              runs: Type.Integer({ minimum: 0 }),
            },
            { additionalProperties: false },
          ),
          { description: 'The periodic jobs, by name' },
        ),
      },
      { additionalProperties: false },
    ),
    backup: Type.Object(
      {
        schedule: Type.Union([Type.String(), Type.Null()], {
          description: 'BACKUP_SCHEDULE, or null when none is set',
        }),
        keep: Type.Integer({ description: 'BACKUP_KEEP' }),
        last: Type.Union(
          [
            Type.Object(
              {
                name: Type.String({ description: 'The file in DATA_DIR/backups' }),
                at: instant('When it was written'),
                bytes: Type.Integer({ minimum: 0 }),
              },
              { additionalProperties: false },
            ),
            Type.Null(),
          ],
          { description: 'The newest backup in DATA_DIR/backups, or null' },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AdminHealth = Static<typeof AdminHealthSchema>;

export const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    at: instant('When'),
    actor: Type.String({ description: 'The operator who did it (the name stays when deleted)' }),
    action: Type.Union(ADMIN_ACTIONS.map((action) => Type.Literal(action))),
    target: Type.Union([Type.String(), Type.Null()], {
      description: 'The account acted on; null for a test e-mail',
    }),
  },
  { additionalProperties: false },
);
export type AuditEntry = Static<typeof AuditEntrySchema>;

const refused = { 403: ErrorSchema };
const onUser = { ...refused, 404: ErrorSchema };

export const adminApi = defineEndpoints('admin', routes.admin, {
  users: {
    summary: 'Every account, for the operator',
    responses: { 200: Type.Array(AdminUserSchema), ...refused },
  },
  disable: {
    summary: 'Disable an account: it cannot sign in, its sessions end, its tokens stop working',
    description: '409 for the operator themself (an operator cannot lock themself out).',
    params: IdParamsSchema,
    responses: { 200: AdminUserSchema, ...onUser, 409: ErrorSchema },
  },
  enable: {
    summary: 'Enable a disabled account again',
    params: IdParamsSchema,
    responses: { 200: AdminUserSchema, ...onUser },
  },
  remove: {
    summary: 'Delete an account and all its data',
    description: '409 for the operator themself (they delete their account in Settings).',
    params: IdParamsSchema,
    responses: { 204: NoContent('Deleted'), ...onUser, 409: ErrorSchema },
  },
  resendVerification: {
    summary: 'Send the account a new e-mail verification link',
    description:
      '409 when the address is verified already; 503 when e-mail is not configured or the send fails.',
    params: IdParamsSchema,
    responses: { 202: NoContent('Sent'), ...onUser, 409: ErrorSchema, 503: ErrorSchema },
  },
  endSessions: {
    summary: 'End every session of the account (its devices sign in again)',
    params: IdParamsSchema,
    responses: {
      200: Type.Object({ ended: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
      ...onUser,
    },
  },
  health: {
    summary: "The server's health: database, Redis, mail, background jobs, last backup",
    responses: { 200: AdminHealthSchema, ...refused },
  },
  testEmail: {
    summary: "Send a test e-mail to the operator's own address",
    description:
      '503 when e-mail is not configured or the SMTP server refuses it (the sentence says why, without the settings).',
    responses: {
      200: Type.Object({ to: Type.String() }, { additionalProperties: false }),
      ...refused,
      503: ErrorSchema,
    },
  },
  auditLog: {
    summary: `The audit log of admin actions, newest first (the last ${AUDIT_LOG_PAGE})`,
    responses: { 200: Type.Array(AuditEntrySchema), ...refused },
  },
});
