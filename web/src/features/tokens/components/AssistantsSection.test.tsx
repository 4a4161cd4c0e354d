import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FAKE_API_TOKEN, fakeBackend } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

describe('/settings, AI assistants', () => {
  it('shows the MCP configuration to copy, with a token made for the assistant', async () => {
    const { calls } = fakeBackend();
    const { user } = renderApp('/settings/assistants');
    const section = await screen.findByRole('region', { name: 'AI assistants (MCP)' }, LAZY_LOAD);
    const field = within(section).getByLabelText('MCP configuration');
    expect(JSON.parse((field as HTMLTextAreaElement).value)).toEqual({
      mcpServers: {
        tally: {
          type: 'http',
          url: `${window.location.origin}/mcp`,
          headers: { Authorization: 'Bearer tally_pat_…your API token…', 'X-Time-Zone': zone },
        },
      },
    });

    await user.selectOptions(
      within(section).getByLabelText('Token for the assistant'),
      'Read only',
    );
    await user.click(
      within(section).getByRole('button', { name: 'Make a token for an assistant' }),
    );
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Token made and put in the configuration: copy it now, it is shown once.',
    );
    expect((field as HTMLTextAreaElement).value).toContain(`"Bearer ${FAKE_API_TOKEN}"`);
    expect(
      calls.find((c) => c.method === 'POST' && c.path === '/api/account/tokens')?.body,
    ).toEqual({ name: 'AI assistant (read only)', scope: 'read', expiresInDays: 365 });

    await user.click(within(section).getByRole('button', { name: 'Copy configuration' }));
    expect(JSON.parse(await navigator.clipboard.readText())).toMatchObject({
      mcpServers: { tally: { headers: { Authorization: `Bearer ${FAKE_API_TOKEN}` } } },
    });
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Configuration copied to the clipboard.',
    );
  });
});

describe('/settings, Share and bookmarklet', () => {
  it('offers a bookmarklet that opens /share with the page, to drag or to copy', async () => {
    fakeBackend();
    const { user } = renderApp('/settings/share');
    const section = await screen.findByRole('region', { name: 'Share and bookmarklet' }, LAZY_LOAD);
    const code = within(section).getByLabelText(
      "Bookmarklet code (paste it as a bookmark's address)",
    ) as HTMLInputElement;
    expect(code.value).toMatch(/^javascript:/);
    expect(code.value).toContain(`'${window.location.origin}/share?'`);
    expect(within(section).getByRole('link', { name: 'Add to Tally' })).toHaveAttribute(
      'href',
      code.value,
    );
    await user.click(within(section).getByRole('button', { name: 'Copy code' }));
    expect(await navigator.clipboard.readText()).toBe(code.value);
  });
});
