import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Reminder } from '@tally/contract';
import { onLiveEvent } from '#web/lib/live-listeners';
import { STORAGE_KEYS, readStorage, writeStorage } from '#web/lib/storage';
import { fetchRecentReminders } from '../api/get-recent-reminders';

/**
 * While signed in, shows each reminder that went out as a notice ("Reminder: …") with Complete
 * and Snooze, in the notice region screen readers announce. The live stream says when one went
 * out (a `reminder.fired` event, lib/live-listeners.ts); the app then asks which, and also when it
 * starts and when the page becomes visible again (what went out meanwhile). The last one shown is
 * remembered in localStorage, so another tab or a reload does not show it again.
 */
export function useReminderNotices(signedIn: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!signedIn) return;
    let stopped = false;
    let asking = false;
    const snoozes = new Set<ReturnType<typeof setTimeout>>();

    const show = (reminder: Reminder) =>
      void import('../lib/show-reminder').then(({ showReminder }) =>
        showReminder(reminder, queryClient, (timer) => snoozes.add(timer)),
      );
    const ask = async () => {
      if (asking) return;
      asking = true;
      try {
        const seen = readStorage(STORAGE_KEYS.reminderSeen);
        const reminders = await fetchRecentReminders(seen);
        if (stopped) return;
        for (const reminder of reminders) {
          const latest = readStorage(STORAGE_KEYS.reminderSeen);
          if (latest !== null && reminder.firedAt <= latest) continue;
          writeStorage(STORAGE_KEYS.reminderSeen, reminder.firedAt);
          show(reminder);
        }
      } catch (error) {
        // A missed one is caught up at the next event or visit (the server keeps an hour).
        console.warn('Reminders could not be loaded', error);
      } finally {
        asking = false;
      }
    };
    void ask();
    const stopListening = onLiveEvent((event) => {
      if (event.type === 'reminder.fired') void ask();
    });
    const onVisible = () => {
      if (document.visibilityState === 'visible') void ask();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      stopListening();
      snoozes.forEach((timer) => clearTimeout(timer));
      snoozes.clear();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [signedIn, queryClient]);
}
