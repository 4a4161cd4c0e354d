import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { QueryClient } from '@tanstack/react-query';
import type { Reminder } from '@tally/contract';
import { api } from '#web/lib/api';
import { formatTime } from '#web/lib/date-format';
import { reportMutationError } from '#web/lib/mutation-errors';
import { dismissNotice, showNotice } from '#web/lib/notices';
import { queryKeys } from '#web/lib/query-keys';

/** Snooze shows the reminder again this much later (in this tab). */
const SNOOZE_MS = 10 * 60_000;

/**
 * Every open tab shows a reminder (docs/decisions/147-reminders-in-every-tab.md): Complete or
 * Snooze pressed in one tab takes its notice away in the others, so it is answered once (a second
 * Complete of a repeating todo would complete its next occurrence too).
 */
const CHANNEL = 'tally-reminder-answered';
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
/** The notice of each reminder shown in this tab, by todo and the time it went out. */
const shown = new Map<string, number>();
const keyOf = (reminder: Reminder) => `${reminder.todoId}@${reminder.firedAt}`;

channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (typeof event.data !== 'string') return;
  const id = shown.get(event.data);
  if (id === undefined) return;
  shown.delete(event.data);
  dismissNotice(id);
});

function answered(reminder: Reminder): void {
  shown.delete(keyOf(reminder));
  channel?.postMessage(keyOf(reminder));
}

async function complete(reminder: Reminder, queryClient: QueryClient): Promise<void> {
  try {
    await api.todos.patch({
      params: { id: reminder.todoId },
      body: { completed: true },
      operation: msg`Complete todo failed`,
    });
    for (const queryKey of [queryKeys.todos, queryKeys.todoCounts, queryKeys.statistics]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  } catch (error) {
    reportMutationError(error, msg`Complete todo failed`);
  }
}

/**
 * A reminder as a notice with Complete and Snooze (hooks/use-reminder-notices.ts), loaded when
 * the first one is shown. `onSnooze` is given each snooze's timer, for the hook to clear.
 */
export function showReminder(
  reminder: Reminder,
  queryClient: QueryClient,
  onSnooze: (timer: ReturnType<typeof setTimeout>) => void,
): void {
  // The time as every screen writes it (lib/date-format.ts): "17:05" or "5:05 PM".
  const { title } = reminder;
  const due = formatTime(reminder.dueTime);
  const id = showNotice(i18n._(msg`Reminder: ${title}, due ${due}`), {
    tone: 'info',
    actions: [
      {
        label: i18n._(msg`Complete`),
        name: i18n._(msg`Complete ${title}`),
        run: () => {
          answered(reminder);
          void complete(reminder, queryClient);
        },
      },
      {
        label: i18n._(msg`Snooze 10 min`),
        name: i18n._(msg`Snooze ${title} for 10 minutes`),
        run: () => {
          answered(reminder);
          onSnooze(setTimeout(() => showReminder(reminder, queryClient, onSnooze), SNOOZE_MS));
        },
      },
    ],
  });
  shown.set(keyOf(reminder), id);
}
