import { screen, waitFor, within } from '@testing-library/react';
import type { ApiToken } from '@tally/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FAKE_API_TOKEN, fakeBackend, json } from '#web/test/fake-api';
import { renderSection } from '#web/test/render';
import { ApiTokensSection } from './ApiTokensSection';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

async function openTokens() {
  const view = renderSection(<ApiTokensSection />);
  const section = await screen.findByRole('region', { name: 'API tokens' });
  return { ...view, section };
}

const oldToken = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: 7,
  name: 'Old script',
  scope: 'read',
  createdAt: '2026-01-02T03:04:05.000Z',
  lastUsedAt: '2026-02-03T04:05:06.000Z',
  expiresAt: null,
  ...overrides,
});

describe('/settings, API tokens', () => {
  it('makes a token, shows it once to copy, and lists it without it', async () => {
    const { calls } = fakeBackend();
    const { user, section } = await openTokens();
    expect(await within(section).findByText('You have no API tokens.')).toBeInTheDocument();
    const form = within(section).getByRole('form', { name: 'New API token' });
    expect(within(form).getByLabelText('Name')).toBeRequired();
    expect(within(form).getByLabelText('Access')).toHaveValue('read');
    expect(within(form).getByLabelText('Expires after')).toHaveValue('90');

    await user.type(within(form).getByLabelText('Name'), 'Backup script');
    await user.selectOptions(within(form).getByLabelText('Access'), 'Read and write');
    await user.selectOptions(within(form).getByLabelText('Expires after'), '30 days');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));

    const shown = await within(section).findByRole('group', { name: 'New token: Backup script' });
    const field = within(shown).getByLabelText('Token');
    expect(field).toHaveValue(FAKE_API_TOKEN);
    expect(field).toHaveAttribute('readonly');
    expect(field).toHaveFocus();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Token Backup script is made. Copy it now: it is shown only once.',
    );
    expect(
      calls.find((c) => c.method === 'POST' && c.path === '/api/account/tokens')?.body,
    ).toEqual({ name: 'Backup script', scope: 'read-write', expiresInDays: 30 });
    // The form is ready for another.
    expect(within(form).getByLabelText('Name')).toHaveValue('');

    await user.click(within(shown).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(FAKE_API_TOKEN);
    expect(within(section).getByRole('status')).toHaveTextContent('Token copied to the clipboard.');

    const list = within(section).getByRole('list', { name: 'API tokens' });
    const row = within(list).getByRole('listitem');
    expect(row).toHaveTextContent('Backup script');
    expect(row).toHaveTextContent('Read and write');
    expect(row).toHaveTextContent('Last used never');
    expect(row).toHaveTextContent('Expires');
    expect(row).not.toHaveTextContent(FAKE_API_TOKEN);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(within(section).queryByRole('group')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(FAKE_API_TOKEN)).not.toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toHaveFocus();
  });

  it('selects the token to copy by hand when the clipboard refuses', async () => {
    fakeBackend();
    const { user, section } = await openTokens();
    await user.type(within(section).getByLabelText('Name'), 'CLI');
    await user.click(within(section).getByRole('button', { name: 'Create token' }));
    const field = await within(section).findByLabelText('Token');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Not allowed'));
    await user.click(within(section).getByRole('button', { name: 'Copy token' }));
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Could not copy: the token is selected, press Ctrl+C (⌘C on a Mac) to copy it.',
    );
    expect(field).toHaveFocus();
  });

  it('revokes a token after asking; Cancel keeps it', async () => {
    const { calls } = fakeBackend({ tokens: [oldToken()] });
    const { user, section } = await openTokens();
    const row = await within(section).findByRole('listitem');
    expect(row).toHaveTextContent('Old script');
    expect(row).toHaveTextContent('Read only');
    expect(row).toHaveTextContent('Expires never');

    await user.click(within(row).getByRole('button', { name: 'Revoke token Old script' }));
    let dialog = screen.getByRole('dialog', { name: 'Revoke API token' });
    expect(dialog).toHaveTextContent(
      'Revoke "Old script"? Anything that uses it stops working at once.',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(within(row).getByRole('button', { name: 'Revoke token Old script' }));
    dialog = screen.getByRole('dialog', { name: 'Revoke API token' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(section).findByText('You have no API tokens.')).toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Token Old script is revoked: it no longer works.',
    );
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/account/tokens/7')).toBe(
      true,
    );
  });

  it('marks an expired token', async () => {
    fakeBackend({
      tokens: [oldToken({ expiresAt: '2026-01-03T00:00:00.000Z', lastUsedAt: null })],
    });
    const { section } = await openTokens();
    const row = await within(section).findByRole('listitem');
    expect(row).toHaveTextContent('Expired');
    expect(row).toHaveTextContent('Last used never');
  });

  it('shows a failed load with Retry', async () => {
    let fail = true;
    fakeBackend(
      {},
      {
        'GET /api/account/tokens': () => (fail ? json({ error: 'boom' }, 500) : json([])),
      },
    );
    const { user, section } = await openTokens();
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'Server error - please try again later',
    );
    fail = false;
    await user.click(within(section).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(within(section).getByText('You have no API tokens.')).toBeInTheDocument(),
    );
  });
});
