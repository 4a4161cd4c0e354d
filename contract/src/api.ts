import { accountApi } from './account.js';
import { adminApi } from './admin.js';
import { authApi } from './auth.js';
import { calendarApi } from './calendar.js';
import { inboxApi } from './inbox.js';
import { filtersApi } from './filters/saved-filters.js';
import { groupsApi } from './groups.js';
import { liveApi } from './live.js';
import { passkeysApi } from './passkeys.js';
import { notificationsApi } from './notifications.js';
import { oidcApi } from './oidc.js';
import { remindersApi } from './reminders.js';
import { statisticsApi } from './statistics.js';
import { tagsApi } from './tags.js';
import { systemApi } from './system.js';
import { todosApi } from './todos.js';
import { tokensApi } from './tokens.js';
import { trashApi } from './trash.js';
import { transferApi } from './transfer.js';
import { twoFactorApi } from './two-factor.js';
import type { Routes } from './routes.js';

/** Every /api call, by feature and name: the one description both sides are built from. */
export const contract = {
  auth: authApi,
  account: accountApi,
  twoFactor: twoFactorApi,
  passkeys: passkeysApi,
  oidc: oidcApi,
  tokens: tokensApi,
  calendar: calendarApi,
  inbox: inboxApi,
  todos: todosApi,
  reminders: remindersApi,
  notifications: notificationsApi,
  tags: tagsApi,
  trash: trashApi,
  filters: filtersApi,
  groups: groupsApi,
  statistics: statisticsApi,
  transfer: transferApi,
  live: liveApi,
  admin: adminApi,
  system: systemApi,
} satisfies { [F in keyof Routes]: { [N in keyof Routes[F]]: unknown } };

export type Contract = typeof contract;
