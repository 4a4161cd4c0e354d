import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend } from '#web/test/fake-api';
import { renderSection } from '#web/test/render';
import { CalendarAppsSection } from './CalendarAppsSection';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('/settings, Calendar apps (CalDAV)', () => {
  it('shows the server address, the username and where to make an app password', async () => {
    fakeBackend();
    renderSection(<CalendarAppsSection email="alice@example.com" />);
    const section = await screen.findByRole('region', { name: 'Calendar apps (CalDAV)' });
    expect(within(section).getByLabelText('Server address')).toHaveValue(
      `${window.location.origin}/`,
    );
    expect(section).toHaveTextContent('alice@example.com as the username');
    // The API tokens section has an address of its own in the section menu.
    expect(within(section).getByRole('link', { name: 'make an API token' })).toHaveAttribute(
      'href',
      '/settings/api-tokens',
    );
  });
});
