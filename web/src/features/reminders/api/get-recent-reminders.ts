import { msg } from '@lingui/core/macro';
import type { Reminder } from '@tally/contract';
import { api } from '#web/lib/api';

const OPERATION = msg`Load reminders failed`;

/** The reminders that went out after `after` (at most an hour back), oldest first. */
export function fetchRecentReminders(after: string | null): Promise<Reminder[]> {
  return api.reminders.recent({ query: after ? { after } : {}, operation: OPERATION });
}
