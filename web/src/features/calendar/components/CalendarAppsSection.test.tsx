import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

describe('/settings, Calendar apps (CalDAV)', () => {
  it('shows the server address, the username and where to make an app password', async () => {
    fakeBackend();
    renderApp('/settings');
    const section = await screen.findByRole(
      'region',
      { name: 'Calendar apps (CalDAV)' },
      LAZY_LOAD,
    );
    expect(within(section).getByLabelText('Server address')).toHaveValue(
      `${window.location.origin}/`,
    );
    expect(section).toHaveTextContent('alice@example.com as the username');
    // The API tokens section has an address of its own in the section menu.
    await userEvent.click(within(section).getByRole('link', { name: 'make an API token' }));
    expect(await screen.findByRole('region', { name: 'API tokens' }, LAZY_LOAD)).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Calendar apps (CalDAV)' })).toBeNull();
  });
});
