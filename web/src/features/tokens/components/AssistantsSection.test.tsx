import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FAKE_API_TOKEN, fakeBackend } from '#web/test/fake-api';
import { renderSection } from '#web/test/render';
import { AssistantsSection } from './AssistantsSection';
import { storeSession } from '#web/test/tokens';

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

describe('/settings, AI assistants', () => {
  it('shows the MCP configuration to copy, with a token made for the assistant', async () => {
    const { calls } = fakeBackend();
    const { user } = renderSection(<AssistantsSection />);
    const section = await screen.findByRole('region', { name: 'AI assistants (MCP)' });
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
