import { msg } from '@lingui/core/macro';
import type { PushSubscriptionBody } from '@tally/contract';
import { api } from '#web/lib/api';

/**
 * This browser's side of reminders by Web Push (docs/product.md, Reminders): whether it can,
 * whether it is subscribed, and turning it on (permission, then a subscription with the
 * server's VAPID key, kept by the server) or off.
 */

export type PushState = 'unsupported' | 'no-worker' | 'blocked' | 'off' | 'on';

const supported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/** Tally's service worker, or null when none runs in this tab (a development server). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

export async function pushState(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  const worker = await registration();
  if (!worker) return 'no-worker';
  if (Notification.permission === 'denied') return 'blocked';
  return (await worker.pushManager.getSubscription()) ? 'on' : 'off';
}

const keyBytes = (base64url: string) => {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
};

/** Asks for permission and subscribes; the state it ends in. */
export async function turnOnPush(): Promise<PushState> {
  const worker = await registration();
  if (!worker) return 'no-worker';
  if ((await Notification.requestPermission()) !== 'granted') {
    return Notification.permission === 'denied' ? 'blocked' : 'off';
  }
  const { publicKey } = await api.reminders.pushKey({ operation: msg`Turn on reminders failed` });
  const subscription = await worker.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  await api.reminders.subscribe({
    body: subscription.toJSON() as PushSubscriptionBody,
    operation: msg`Turn on reminders failed`,
  });
  return 'on';
}

export async function turnOffPush(): Promise<PushState> {
  const subscription = await (await registration())?.pushManager.getSubscription();
  if (subscription) {
    await api.reminders.unsubscribe({
      body: { endpoint: subscription.endpoint },
      operation: msg`Turn off reminders failed`,
    });
    await subscription.unsubscribe();
  }
  return 'off';
}
