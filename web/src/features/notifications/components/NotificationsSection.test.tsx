import { screen, within } from '@testing-library/react';
import type { Channel } from '@tally/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

/** The section, by its heading: the app's toasts are a region named Notifications too. */
async function openSection() {
  const heading = await screen.findByRole(
    'heading',
    { name: 'Notifications', level: 2 },
    LAZY_LOAD,
  );
  const section = heading.closest('section');
  if (!section) throw new Error('no section around the heading');
  return section;
}

const channel = (overrides: Partial<Channel> = {}): Channel => ({
  id: 3,
  kind: 'gotify',
  name: 'Home server',
  url: 'https://gotify.example.com',
  topic: null,
  userKey: null,
  tokenHint: '…wxyz',
  reminders: true,
  enabled: true,
  disabledReason: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

describe('/settings, Notifications', () => {
  it('adds an ntfy channel and sends a test, showing what the server answered', async () => {
    const added = channel({
      id: 9,
      kind: 'ntfy',
      name: 'Phone',
      url: 'https://ntfy.example.com',
      topic: 'tally-alice',
      tokenHint: null,
    });
    const { calls } = fakeBackend(
      {},
      {
        'POST /api/notifications/channels': () =>
          json({ channel: added, signingSecret: null }, 201),
        'POST /api/notifications/channels/:id/test': () =>
          json({ ok: false, status: 403, answer: '{"error":"forbidden"}' }),
      },
    );
    const { user } = renderApp('/settings/notifications');
    const section = await openSection();
    expect(await within(section).findByText('No channels yet.')).toBeInTheDocument();

    const form = within(section).getByRole('form', { name: 'Add a channel' });
    await user.type(within(form).getByLabelText('Name'), 'Phone');
    await user.type(within(form).getByLabelText('Server URL'), 'https://ntfy.example.com');
    await user.type(within(form).getByLabelText('Topic'), 'tally-alice');
    await user.click(within(form).getByRole('button', { name: 'Add channel' }));

    expect(await within(section).findByRole('listitem')).toHaveTextContent('Phone');
    expect(within(section).getByRole('status')).toHaveTextContent('ntfy channel "Phone" added.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      kind: 'ntfy',
      name: 'Phone',
      url: 'https://ntfy.example.com',
      topic: 'tally-alice',
    });

    await user.click(within(section).getByRole('button', { name: 'Send a test to Phone' }));
    expect(
      await within(section).findByText('Not delivered (HTTP 403): {"error":"forbidden"}'),
    ).toBeInTheDocument();
  });

  it('shows a turned-off channel with why, and masks its token', async () => {
    fakeBackend({
      channels: [
        channel({ enabled: false, disabledReason: 'Turned off after failing for 3 days' }),
      ],
    });
    renderApp('/settings/notifications');
    const section = await openSection();
    const row = await within(section).findByRole('listitem');
    expect(row).toHaveTextContent('Turned off after failing for 3 days');
    expect(row).toHaveTextContent('token …wxyz');
    expect(within(row).getByRole('button', { name: 'Turn on' })).toBeInTheDocument();
  });

  it('saves quiet hours and the digest time, read in the account zone', async () => {
    const { calls } = fakeBackend(
      {},
      {
        'GET /api/notifications/settings': () =>
          json({ quietHours: null, digestTime: null, timeZone: 'Europe/Berlin' }),
        'PATCH /api/notifications/settings': () =>
          json({
            quietHours: { start: '22:00', end: '07:00' },
            digestTime: '07:30',
            timeZone: 'Europe/Berlin',
          }),
      },
    );
    const { user } = renderApp('/settings/notifications');
    const section = await openSection();
    const form = await within(section).findByRole('form', { name: 'Quiet hours and daily digest' });
    expect(form).toHaveTextContent('Times are in Europe/Berlin.');
    await user.type(within(form).getByLabelText('Quiet from'), '22:00');
    await user.type(within(form).getByLabelText('Quiet until'), '07:00');
    await user.type(within(form).getByLabelText('Daily digest e-mail at'), '07:30');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('Quiet hours and digest saved.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      quietHours: { start: '22:00', end: '07:00' },
      digestTime: '07:30',
    });
  });
});
