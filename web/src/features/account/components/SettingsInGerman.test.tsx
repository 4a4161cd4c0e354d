import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activateLanguage } from '#web/lib/i18n';
import { FAKE_PASSWORD, fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

beforeEach(async () => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  await activateLanguage('de');
});
afterEach(() => activateLanguage('en'));

/** /settings/password in German, once the account is loaded. */
async function openPasswordSection() {
  const view = renderApp('/settings/password');
  await screen.findByRole('heading', { name: 'Einstellungen', level: 1 }, LAZY_LOAD);
  const section = await screen.findByRole('region', { name: 'Passwort' });
  return { ...view, section };
}

describe('Settings in German', () => {
  it('names the sections, the form and its fields in German', async () => {
    fakeBackend();
    const { section } = await openPasswordSection();
    const menu = screen.getByRole('navigation', { name: 'Bereiche der Einstellungen' });
    for (const name of ['Alle', 'Konto', 'Passwort', 'Zwei-Faktor', 'Sitzungen', 'Gefahrenzone']) {
      expect(within(menu).getByRole('link', { name })).toBeInTheDocument();
    }
    const form = within(section).getByRole('form', { name: 'Passwort ändern' });
    expect(within(form).getByLabelText('Aktuelles Passwort')).toBeInTheDocument();
    expect(within(form).getByLabelText('Neues Passwort')).toBeInTheDocument();
    expect(
      within(section).getByText(/^Mindestens 8 Zeichen\. Alle anderen mit deinem Konto/),
    ).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Passwort ändern' })).toBeEnabled();
  });

  it('heads the Language section as the other sections are headed', async () => {
    fakeBackend();
    renderApp('/settings/language');
    const section = await screen.findByRole('region', { name: 'Sprache' }, LAZY_LOAD);
    expect(within(section).getByRole('heading', { name: 'Sprache', level: 2 })).toBeInTheDocument();
    expect(within(section).getByRole('combobox', { name: 'Sprache' })).toBeInTheDocument();
  });

  it("words a coded refusal in German beside its field, and keeps the server's sentence without a code", async () => {
    let answer = json(
      {
        error: 'newPassword must be at least 8 characters',
        code: 'too_short',
        field: 'newPassword',
        limit: 8,
      },
      400,
    );
    fakeBackend({}, { 'PUT /api/account/password': () => answer });
    const { user, section } = await openPasswordSection();
    const form = within(section).getByRole('form', { name: 'Passwort ändern' });
    const newPassword = within(form).getByLabelText('Neues Passwort');
    await user.type(within(form).getByLabelText('Aktuelles Passwort'), FAKE_PASSWORD);
    await user.type(newPassword, 'short');
    await user.click(within(form).getByRole('button', { name: 'Passwort ändern' }));
    await waitFor(() =>
      expect(newPassword).toHaveAccessibleDescription(
        /Das Feld „Neues Passwort“ muss mindestens 8 Zeichen lang sein\./,
      ),
    );
    expect(newPassword).toBeInvalid();

    // A refusal without a code (or with one this app does not know) is the server's sentence.
    answer = json({ error: 'newPassword is too common - choose another' }, 400);
    await user.type(newPassword, '-more');
    await user.click(within(form).getByRole('button', { name: 'Passwort ändern' }));
    await waitFor(() =>
      expect(newPassword).toHaveAccessibleDescription(
        /The new password is too common - choose another\./,
      ),
    );
  });
});
