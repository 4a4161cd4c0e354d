import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FAKE_API_TOKEN, FAKE_PASSWORD, fakeBackend } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

async function makeToken() {
  const view = renderApp('/settings');
  const section = await screen.findByRole('region', { name: 'API tokens' }, LAZY_LOAD);
  const form = within(section).getByRole('form', { name: 'New API token' });
  await view.user.type(within(form).getByLabelText('Name'), 'Backup script');
  await view.user.click(within(form).getByRole('button', { name: 'Create token' }));
  return { ...view, section };
}

describe('/settings, a change that needs a recent proof of identity', () => {
  it('asks for the password, shows a refusal beside the field, then makes the change', async () => {
    const { calls } = fakeBackend({ proofExpired: true });
    const { user, section } = await makeToken();

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    const password = within(dialog).getByLabelText('Password');
    expect(password).toHaveFocus();
    await user.type(password, 'not it');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    // A sentence a person reads, beside the field (docs/product.md, Errors), gone once the password
    // is edited.
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The password is not correct.',
    );
    expect(password).toHaveAccessibleDescription('The password is not correct.');

    await user.clear(password);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await user.type(password, FAKE_PASSWORD);
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    const shown = await within(section).findByRole('group', { name: 'New token: Backup script' });
    expect(within(shown).getByLabelText('Token')).toHaveValue(FAKE_API_TOKEN);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(
      calls.filter((c) => c.method === 'POST' && c.path === '/api/account/tokens'),
    ).toHaveLength(2);
    expect(
      calls.find((c) => c.path === '/api/account/reauthenticate' && c.body !== undefined)?.body,
    ).toEqual({ password: 'not it' });
  }, 20_000);

  it('leaves the change undone on Cancel, with the reason shown and the session kept', async () => {
    const { state } = fakeBackend({ proofExpired: true });
    const { user } = await makeToken();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(/Confirm it's you: enter your password again/)).toBeVisible();
    expect(state.tokens).toEqual([]);
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeVisible();
  }, 20_000);
});
