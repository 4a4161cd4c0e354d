import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Reminder } from '@tally/contract';
import { onLiveEvent } from '#web/lib/live-listeners';
import { STORAGE_KEYS, readStorage, tabStorage, writeStorage } from '#web/lib/storage';
import { fetchRecentReminders } from '../api/get-recent-reminders';

/** This tab's own last shown reminder (sessionStorage: it outlives a reload of the tab only). */
const readTabSeen = () => tabStorage.read(STORAGE_KEYS.reminderSeen);
const writeTabSeen = (firedAt: string) => tabStorage.write(STORAGE_KEYS.reminderSeen, firedAt);

/**
 * While signed in, shows each reminder that went out as a notice ("Reminder: …") with Complete
 * and Snooze, in the notice region screen readers announce. The live stream says when one went
 * out (a `reminder.fired` event, lib/live-listeners.ts); the app then asks which, and also when it
 * starts and when the page becomes visible again (what went out meanwhile). Every open tab shows
 * it (docs/decisions/147-reminders-in-every-tab.md): each tab remembers the last one it showed, so
 * a reload does not show it again, and a tab opened later starts from the last one any tab showed
 * (localStorage), so it does not bring back the past hour's.
 */
export function useReminderNotices(signedIn: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!signedIn) return;
    let stopped = false;
    let asking = false;
    const snoozes = new Set<ReturnType<typeof setTimeout>>();
    let seen = readTabSeen() ?? readStorage(STORAGE_KEYS.reminderSeen);

    const show = (reminder: Reminder) =>
      void import('../lib/show-reminder').then(({ showReminder }) =>
        showReminder(reminder, queryClient, (timer) => snoozes.add(timer)),
      );
    const ask = async () => {
      if (asking) return;
      asking = true;
      try {
        const reminders = await fetchRecentReminders(seen);
        if (stopped) return;
        for (const reminder of reminders) {
          if (seen !== null && reminder.firedAt <= seen) continue;
          seen = reminder.firedAt;
          writeTabSeen(reminder.firedAt);
          const shared = readStorage(STORAGE_KEYS.reminderSeen);
          if (shared === null || reminder.firedAt > shared) {
            writeStorage(STORAGE_KEYS.reminderSeen, reminder.firedAt);
          }
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
