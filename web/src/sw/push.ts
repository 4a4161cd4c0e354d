/// <reference lib="webworker" />
import { notificationClicked, readReminder, reminderNotification } from './reminders';

/**
 * Web Push reminders (docs/product.md, Reminders): the worker's `push` and `notificationclick`
 * handlers, imported by sw.ts for their side effects. The logic is in reminders.ts.
 */
declare const self: ServiceWorkerGlobalScope;

function pushData(event: PushEvent): unknown {
  try {
    return event.data?.json();
  } catch {
    return null;
  }
}

self.addEventListener('push', (event) => {
  const reminder = readReminder(pushData(event));
  if (!reminder) return;
  const { title, options } = reminderNotification(reminder, new Date());
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    notificationClicked(
      event.action,
      event.notification.data,
      self.clients,
      self.location.origin,
      (url) => fetch(url, { method: 'POST' }),
    ),
  );
});
