import type { QueryClient } from '@tanstack/react-query';
import type { Reminder } from '@tally/contract';
import { api } from '#web/lib/api';
import { formatTime } from '#web/lib/date-format';
import { reportMutationError } from '#web/lib/mutation-errors';
import { showNotice } from '#web/lib/notices';
import { queryKeys } from '#web/lib/query-keys';

/** Snooze shows the reminder again this much later (in this tab). */
const SNOOZE_MS = 10 * 60_000;

async function complete(reminder: Reminder, queryClient: QueryClient): Promise<void> {
  try {
    await api.todos.patch({
      params: { id: reminder.todoId },
      body: { completed: true },
      operation: 'Complete todo',
    });
    for (const queryKey of [queryKeys.todos, queryKeys.todoCounts, queryKeys.statistics]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  } catch (error) {
    reportMutationError(error, 'Complete todo');
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
  showNotice(`Reminder: ${reminder.title}, due ${formatTime(reminder.dueTime)}`, {
    tone: 'info',
    actions: [
      {
        label: 'Complete',
        name: `Complete ${reminder.title}`,
        run: () => void complete(reminder, queryClient),
      },
      {
        label: 'Snooze 10 min',
        name: `Snooze ${reminder.title} for 10 minutes`,
        run: () =>
          onSnooze(setTimeout(() => showReminder(reminder, queryClient, onSnooze), SNOOZE_MS)),
      },
    ],
  });
}
