import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, inboxAddress } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

describe('/settings, E-mail to task', () => {
  it('shows and copies the address, makes a new one after asking, and switches who may send', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp('/settings/email-to-task');
    const section = await screen.findByRole('region', { name: 'E-mail to task' }, LAZY_LOAD);
    const field = await within(section).findByLabelText('Your address');
    expect(field).toHaveValue(inboxAddress(2));

    await user.click(within(section).getByRole('button', { name: 'Copy address' }));
    expect(await navigator.clipboard.readText()).toBe(inboxAddress(2));
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Address copied to the clipboard.',
    );

    await user.click(within(section).getByRole('button', { name: 'Make a new address' }));
    const dialog = screen.getByRole('dialog', { name: 'Make a new address?' });
    expect(dialog).toHaveTextContent('Mail sent to the current address stops making todos');
    await user.click(within(dialog).getByRole('button', { name: 'Make a new address' }));
    expect(await within(section).findByDisplayValue(inboxAddress(3))).toBeInTheDocument();
    expect(within(section).getByRole('status')).toHaveTextContent(
      'A new address is ready. Mail to the old one no longer makes todos.',
    );

    const only = within(section).getByRole('switch', { name: 'Only from my address' });
    expect(only).toHaveAttribute('aria-checked', 'true');
    expect(only).toHaveAccessibleDescription(
      'Only mail from alice@example.com makes a todo; other mail is dropped without an answer.',
    );
    await user.click(only);
    expect(
      await within(section).findByText(/Mail from anyone who has the address makes a todo/),
    ).toBeInTheDocument();
    expect(only).toHaveAttribute('aria-checked', 'false');
    const patch = calls.find((c) => c.method === 'PATCH' && c.path === '/api/account/inbox');
    expect(patch?.body).toEqual({ onlyFromMyAddresses: false });
  }, 20_000);

  it('says when the address is not verified, and when the server has no mailbox', async () => {
    fakeBackend({
      inbox: { address: inboxAddress(1), onlyFromMyAddresses: true, verifiedEmail: null },
    });
    const first = renderApp('/settings/email-to-task');
    const section = await screen.findByRole('region', { name: 'E-mail to task' }, LAZY_LOAD);
    expect(
      await within(section).findByText(/Your e-mail address is not verified yet/),
    ).toBeInTheDocument();
    first.unmount();

    fakeBackend({ inbox: { address: null, onlyFromMyAddresses: true, verifiedEmail: null } });
    renderApp('/settings/email-to-task');
    const bare = await screen.findByRole('region', { name: 'E-mail to task' }, LAZY_LOAD);
    expect(
      await within(bare).findByText(/E-mail to task is not set up on this server/),
    ).toBeInTheDocument();
    expect(within(bare).queryByLabelText('Your address')).not.toBeInTheDocument();
  }, 20_000);
});
