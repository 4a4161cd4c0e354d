import { useEffect } from 'react';
import { showNotice } from '#web/lib/notices';
import { STORAGE_KEYS, readStorage, writeStorage } from '#web/lib/storage';
import { fetchRecentReminders } from '../api/get-recent-reminders';

/** How often the open app asks what went out (docs/decisions/064-reminders.md). */
const REMINDER_POLL_MS = 30_000;

/**
 * While signed in and the page is visible, asks every 30 s which reminders went out and shows
 * each once as a notice ("Reminder: …"), in the notice region screen readers announce. The last
 * one shown is remembered in localStorage, so another tab or a reload does not show it again.
 */
export function useReminderNotices(signedIn: boolean): void {
  useEffect(() => {
    if (!signedIn) return;
    let stopped = false;
    let asking = false;
    const ask = async () => {
      if (asking || document.visibilityState !== 'visible') return;
      asking = true;
      try {
        const seen = readStorage(STORAGE_KEYS.reminderSeen);
        const reminders = await fetchRecentReminders(seen);
        if (stopped) return;
        for (const reminder of reminders) {
          const latest = readStorage(STORAGE_KEYS.reminderSeen);
          if (latest !== null && reminder.firedAt <= latest) continue;
          writeStorage(STORAGE_KEYS.reminderSeen, reminder.firedAt);
          showNotice(`Reminder: ${reminder.title}, due ${reminder.dueTime}`, { tone: 'info' });
        }
      } catch (error) {
        // A missed round is caught up by the next one (the server keeps an hour).
        console.warn('Reminders could not be loaded', error);
      } finally {
        asking = false;
      }
    };
    void ask();
    const timer = setInterval(() => void ask(), REMINDER_POLL_MS);
    const onVisible = () => void ask();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [signedIn]);
}
