import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeEach(() => storeSession('alice'));

/** Settings' Calendar view section: the first day of the week, on the account. */
describe('Week starts on', () => {
  it('saves the chosen day on the account, and the language again when cleared', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp('/settings/calendar-view');
    const field = await screen.findByLabelText('Week starts on', {}, { timeout: 15_000 });
    expect(field).toHaveValue('');
    await waitFor(() => expect(field).toBeEnabled());
    await user.selectOptions(field, 'Monday');
    await waitFor(() => expect(field).toHaveValue('1'));
    await waitFor(() => expect(field).toBeEnabled());
    await user.selectOptions(field, 'As my language does');
    await waitFor(() => expect(field).toHaveValue(''));
    const saved = calls
      .filter((call) => call.method === 'PATCH' && call.path === '/api/account/preferences')
      .map((call) => call.body);
    expect(saved).toEqual([{ weekStart: 1 }, { weekStart: null }]);
  }, 20_000);
});
