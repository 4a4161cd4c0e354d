import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, json, noContent } from '#web/test/fake-api';
import { renderSection } from '#web/test/render';
import { RemindersSection } from './RemindersSection';
import { storeSession } from '#web/test/tokens';

beforeEach(() => storeSession('alice'));
afterEach(() => vi.unstubAllGlobals());

const KEY = 'B'.repeat(86) + 'A';
const subscription = {
  endpoint: 'https://push.example.com/send/1',
  toJSON: () => ({
    endpoint: 'https://push.example.com/send/1',
    keys: { p256dh: 'P'.repeat(87), auth: 'A'.repeat(22) },
  }),
  unsubscribe: vi.fn(async () => true),
};

/** A browser with push: a service worker, PushManager and Notification (permission as given). */
function pushBrowser(
  permission: NotificationPermission,
  answer: NotificationPermission = 'granted',
) {
  let current: typeof subscription | null = null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async () => (current = subscription)),
  };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, {
      permission,
      requestPermission: vi.fn(async () => answer),
    }),
  );
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ pushManager }) },
  });
  return pushManager;
}

describe('/settings, Reminders', () => {
  it('says so when the browser has no push', async () => {
    fakeBackend();
    renderSection(<RemindersSection />);
    const section = await screen.findByRole('region', { name: 'Reminders' });
    expect(await within(section).findByText(/cannot receive reminders/)).toBeVisible();
  });

  it('turns reminders on (permission, the VAPID key, the subscription kept) and off', async () => {
    const pushManager = pushBrowser('default');
    const { calls } = fakeBackend(
      {},
      {
        'GET /api/push/key': () => json({ publicKey: KEY }),
        'POST /api/push/subscriptions': () => noContent(),
        'DELETE /api/push/subscriptions': () => noContent(),
      },
    );
    const { user } = renderSection(<RemindersSection />);
    const section = await screen.findByRole('region', { name: 'Reminders' });
    await user.click(
      await within(section).findByRole('button', { name: 'Turn on reminders on this device' }),
    );
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Reminders are on for this device.',
    );
    expect(pushManager.subscribe).toHaveBeenCalledWith(
      expect.objectContaining({ userVisibleOnly: true }),
    );
    expect(
      calls.find((call) => call.method === 'POST' && call.path === '/api/push/subscriptions')?.body,
    ).toEqual(subscription.toJSON());

    await user.click(within(section).getByRole('button', { name: 'Turn off on this device' }));
    expect(await within(section).findByText('Reminders are off for this device.')).toBeVisible();
    expect(
      calls.find((call) => call.method === 'DELETE' && call.path === '/api/push/subscriptions')
        ?.body,
    ).toEqual({ endpoint: subscription.endpoint });
    expect(subscription.unsubscribe).toHaveBeenCalled();
  });

  it('says beside the button when the permission question was closed unanswered', async () => {
    const pushManager = pushBrowser('default', 'default');
    fakeBackend();
    const { user } = renderSection(<RemindersSection />);
    const section = await screen.findByRole('region', { name: 'Reminders' });
    const button = await within(section).findByRole('button', {
      name: 'Turn on reminders on this device',
    });
    await user.click(button);
    const note = await within(section).findByRole('alert');
    expect(note).toHaveTextContent(/closed without an answer, so reminders stay off/);
    expect(note).toHaveTextContent(/choose Allow, or allow notifications in the site settings/);
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(button.parentElement).toContainElement(note);
  });

  it('explains how to unblock notifications', async () => {
    pushBrowser('denied');
    fakeBackend();
    renderSection(<RemindersSection />);
    const section = await screen.findByRole('region', { name: 'Reminders' });
    expect(await within(section).findByText(/Notifications are blocked/)).toBeVisible();
  });
});
