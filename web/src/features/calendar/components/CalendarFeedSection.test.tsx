import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend } from '#web/test/fake-api';
import { renderSection } from '#web/test/render';
import { CalendarFeedSection } from './CalendarFeedSection';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

const secret = (n: number) => String(n).padStart(43, 's');
const addressOf = (n: number) => `${window.location.origin}/api/calendar/${secret(n)}.ics`;

describe('/settings, Calendar feed', () => {
  it('makes the address, copies it, makes a new one after asking, and turns it off', async () => {
    const { calls } = fakeBackend();
    const { user } = renderSection(<CalendarFeedSection />);
    const section = await screen.findByRole('region', { name: 'Calendar feed' });

    await user.click(
      await within(section).findByRole('button', { name: 'Create calendar address' }),
    );
    const field = await within(section).findByLabelText('Calendar address');
    expect(field).toHaveValue(addressOf(1));
    expect(field).toHaveFocus();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Your calendar address is ready. Add it to your calendar app as a subscription.',
    );
    // The browser's zone went with the call; the feed keeps it.
    const made = calls.find((c) => c.method === 'POST' && c.path === '/api/account/calendar');
    const zone = made?.headers.get('x-time-zone') ?? 'UTC';
    expect(section).toHaveTextContent(`Times of day are in ${zone}`);
    expect(
      within(section).getByRole('link', { name: 'Open in your calendar app' }),
    ).toHaveAttribute('href', addressOf(1).replace(/^https?:/, 'webcal:'));

    await user.click(within(section).getByRole('button', { name: 'Copy address' }));
    expect(await navigator.clipboard.readText()).toBe(addressOf(1));
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Address copied to the clipboard.',
    );

    await user.click(within(section).getByRole('button', { name: 'Make a new address' }));
    const dialog = screen.getByRole('dialog', { name: 'Make a new address?' });
    expect(dialog).toHaveTextContent('The current address stops working at once');
    await user.click(within(dialog).getByRole('button', { name: 'Make a new address' }));
    expect(await within(section).findByDisplayValue(addressOf(2))).toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'A new calendar address is ready. The old one no longer works.',
    );

    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    const off = screen.getByRole('dialog', { name: 'Turn off the calendar feed?' });
    await user.click(within(off).getByRole('button', { name: 'Turn off' }));
    expect(
      await within(section).findByRole('button', { name: 'Create calendar address' }),
    ).toBeInTheDocument();
    expect(within(section).queryByLabelText('Calendar address')).not.toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'The calendar feed is off. Its address no longer works.',
    );
    expect(calls.filter((c) => c.path === '/api/account/calendar').map((c) => c.method)).toEqual([
      'GET',
      'POST',
      'POST',
      'DELETE',
    ]);
  });

  it('shows an existing address and its zone', async () => {
    fakeBackend({
      calendarFeed: {
        path: `/api/calendar/${secret(9)}.ics`,
        timeZone: 'Europe/Berlin',
        createdAt: '2026-03-01T00:00:00.000Z',
      },
    });
    renderSection(<CalendarFeedSection />);
    const section = await screen.findByRole('region', { name: 'Calendar feed' });
    expect(await within(section).findByLabelText('Calendar address')).toHaveValue(addressOf(9));
    expect(within(section).getByLabelText('Calendar address')).not.toHaveFocus();
    expect(section).toHaveTextContent('Times of day are in Europe/Berlin');
  });
});
