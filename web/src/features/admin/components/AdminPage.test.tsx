import type { AdminHealth } from '@tally/contract';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

/** The lazy route's code is transformed on first use, which can take a while in a busy run. */
const LAZY_LOAD = { timeout: 15_000 };

beforeEach(() => storeSession('alice'));

const health = (imap: AdminHealth['imap']): AdminHealth => ({
  database: { ok: true, detail: 'SQLite' },
  redis: null,
  mail: null,
  imap,
  jobs: { lagSeconds: 0, background: [] },
  backup: { schedule: null, keep: 7, last: null },
});

const showAdmin = (imap: AdminHealth['imap']) => {
  fakeBackend(
    {},
    {
      'GET /api/admin/users': () => json([]),
      'GET /api/admin/health': () => json(health(imap)),
      'GET /api/admin/audit-log': () => json([]),
    },
  );
  renderApp('/admin');
};

/** The text of the health list's line named `label`. */
const line = async (label: string) => {
  const term = await screen.findByText(label, { selector: 'dt' }, LAZY_LOAD);
  return term.parentElement?.querySelector('dd')?.textContent ?? '';
};

describe('the admin page health, IMAP line', () => {
  it('says the fetcher is connected here, with the last mail', async () => {
    showAdmin({
      ok: true,
      leaseHeld: true,
      here: true,
      connected: true,
      lastMailAt: '2026-03-10T09:30:00.000Z',
      lastError: null,
    });
    const text = await line('IMAP');
    expect(text).toContain('OK - Connected, this process holds the fetcher');
    expect(text).not.toContain('none yet');
    expect(text).not.toContain('last error');
  });

  it('shows a failing fetcher with its last error', async () => {
    showAdmin({
      ok: false,
      leaseHeld: false,
      here: false,
      connected: false,
      lastMailAt: null,
      lastError: { at: '2026-03-10T09:31:00.000Z', message: 'Authentication failed.' },
    });
    const text = await line('IMAP');
    expect(text).toContain('Failing - No process holds the fetcher');
    expect(text).toContain('last mail none yet');
    expect(text).toContain('Authentication failed.');
  });

  it('says Not configured without e-mail to task', async () => {
    showAdmin(null);
    expect(await line('IMAP')).toBe('Not configured');
  });
});
