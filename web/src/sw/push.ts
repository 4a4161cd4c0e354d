/**
 * Web Push reminders (issue 17, "Reminders"): the service worker's `push` and
 * `notificationclick` handlers live here, imported by sw.ts for their side effects. Until the
 * reminders land this module adds none, so the worker only serves the app offline.
 */
export {};
