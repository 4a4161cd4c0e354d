import { Type, type Static } from '@sinclair/typebox';
import { ErrorSchema } from './common.js';
import { defineEndpoints } from './endpoint.js';
import { routes } from './routes.js';

/**
 * E-mail to task (docs/product.md, E-mail to task; docs/decisions/140-email-to-task-over-imap.md):
 * each account's private address on the operator's mailbox. A mail sent to it becomes a todo.
 */

export const InboxSchema = Type.Object(
  {
    address: Type.Union([Type.String(), Type.Null()], {
      description:
        'The private address, todo+{secret}@{domain}: anyone who has it can add todos. Null when the server has no mailbox (INBOX_IMAP_URL unset)',
    }),
    onlyFromMyAddresses: Type.Boolean({
      description:
        "Whether mail is taken only from the account's verified e-mail address (true by default)",
    }),
    verifiedEmail: Type.Union([Type.String(), Type.Null()], {
      description: "The account's e-mail address when it is verified, else null",
    }),
  },
  { additionalProperties: false },
);
export type Inbox = Static<typeof InboxSchema>;

export const UpdateInboxBodySchema = Type.Object(
  {
    onlyFromMyAddresses: Type.Boolean({
      description: 'true: mail from any other sender makes nothing',
    }),
  },
  { additionalProperties: false },
);
export type UpdateInboxBody = Static<typeof UpdateInboxBodySchema>;

export const inboxApi = defineEndpoints('inbox', routes.inbox, {
  get: {
    summary: "The account's e-mail-to-task address and its sender rule",
    responses: { 200: InboxSchema, 401: ErrorSchema, 403: ErrorSchema },
  },
  renew: {
    summary: 'A new address: mail to the old one makes nothing from now on',
    responses: { 200: InboxSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
  },
  update: {
    summary: 'Take mail only from the verified address, or from anyone who has the address',
    body: UpdateInboxBodySchema,
    responses: { 200: InboxSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
  },
});
