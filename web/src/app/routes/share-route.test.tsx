import { screen, within } from '@testing-library/react';
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

describe('/share', () => {
  it('opens the Add Todo form filled with the shared page, and saves it as shown', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp(
      '/share?title=Sourdough%20basics&text=&url=https%3A%2F%2Fexample.com%2Fbread',
    );
    const form = await screen.findByRole('form', { name: 'New todo' }, LAZY_LOAD);
    expect(within(form).getByLabelText('Title')).toHaveValue('Sourdough basics');
    expect(within(form).getByLabelText(/^Description/)).toHaveValue('https://example.com/bread');
    // The address no longer holds the draft: a reload does not open it again.
    expect(window.location.pathname + window.location.search).toBe('/todos');

    await user.click(within(form).getByRole('button', { name: 'Create Todo' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/api/todos')?.body).toMatchObject(
        { title: 'Sourdough basics', description: 'https://example.com/bread' },
      ),
    );
  });

  it('goes to the list when nothing was shared', async () => {
    fakeBackend();
    renderApp('/share');
    expect(await screen.findByRole('button', { name: 'Add Todo' }, LAZY_LOAD)).toBeVisible();
    expect(screen.queryByRole('form', { name: 'New todo' })).toBeNull();
  });
});
