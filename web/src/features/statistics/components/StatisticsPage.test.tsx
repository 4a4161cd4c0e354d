import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daysAgo } from '#web/lib/format';
import { ZERO_SINCE, ZERO_TOTALS, dailyRecords, fakeBackend } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const totals = {
  ...ZERO_TOTALS,
  todosCreated: 40,
  todosCompleted: 25,
  groupsCreated: 4,
  logins: 12,
  todosDeleted: 3,
  googleAuths: 2,
  registrations: 1,
  tokensGenerated: 30,
  refreshTokensCreated: 29,
  todosUpdated: 17,
  groupsUpdated: 5,
  groupsDeleted: 1,
};

/** The 7-day window: some activity, but no groups; the 30-day one: 9 created, 6 completed. */
const since = (date: string) =>
  date === daysAgo(7)
    ? { ...ZERO_SINCE, todosCreated: 5, todosCompleted: 3, groupsCreated: 0, logins: 2 }
    : { ...ZERO_SINCE, todosCreated: 9, todosCompleted: 6, todosDeleted: 40 };

const card = (label: string) =>
  screen.getByText(label, { selector: 'dt' }).closest('div') as HTMLElement;

beforeEach(() => {
  storeSession('alice');
});

describe('/statistics', () => {
  it('shows the title, subtitle, totals and "+N this week" only above 0', async () => {
    fakeBackend({ totals, since });
    renderApp('/statistics');

    expect(await screen.findByRole('heading', { name: 'Your Statistics' })).toBeInTheDocument();
    expect(screen.getByText('Track your productivity and app usage')).toBeInTheDocument();
    await screen.findByText('+5 this week');

    expect(within(card('Todos Created')).getByText('40')).toBeInTheDocument();
    expect(within(card('Todos Created')).getByText('+5 this week')).toBeInTheDocument();
    expect(within(card('Todos Completed')).getByText('+3 this week')).toBeInTheDocument();
    expect(within(card('Logins')).getByText('+2 this week')).toBeInTheDocument();
    expect(within(card('Groups Created')).queryByText(/this week/)).not.toBeInTheDocument();

    expect(within(card('Todos Deleted')).getByText('3')).toBeInTheDocument();
    expect(within(card('Refresh Tokens Created')).getByText('29')).toBeInTheDocument();
    expect(within(card('Google Sign-ins')).getByText('2')).toBeInTheDocument();
  });

  it('computes Task Completion Rate (Last 30 Days) from the 30-day result, not the 7-day one', async () => {
    const { calls } = fakeBackend({ totals, since });
    renderApp('/statistics');
    const rate = card('Task Completion Rate (Last 30 Days)');
    await waitFor(() => expect(within(rate).getByText('67%')).toBeInTheDocument());
    const sinceDates = calls
      .filter((call) => call.path === '/api/statistics/since')
      .map((call) => call.search.get('since'));
    expect(sinceDates.sort()).toEqual([daysAgo(30), daysAgo(7)].sort());
  });

  it('draws 7 days by default and 14 or 30 on request', async () => {
    const { calls } = fakeBackend({
      totals,
      recent: (days) => dailyRecords(days, (index) => ({ todosCreated: index + 1 })),
    });
    const { user } = renderApp('/statistics');

    const chart = await screen.findByTestId('activity-bars');
    expect(screen.getByRole('button', { name: '7 Days' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(chart).getAllByRole('img')).toHaveLength(7);
    expect(chart).toHaveStyle({ gap: '8px' });

    await user.click(screen.getByRole('button', { name: '30 Days' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('activity-bars')).getAllByRole('img')).toHaveLength(30),
    );
    expect(screen.getByTestId('activity-bars')).toHaveStyle({ gap: '2px' });
    expect(
      calls
        .filter((call) => call.path === '/api/statistics/recent')
        .map((c) => c.search.get('days')),
    ).toEqual(['7', '30']);

    await user.click(screen.getByRole('button', { name: '14 Days' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('activity-bars')).getAllByRole('img')).toHaveLength(14),
    );
  });
});

describe('/statistics offline', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'onLine');
  });

  it('says the statistics are not available offline instead of loading for ever', async () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    fakeBackend({ totals, since });
    renderApp('/statistics');
    expect(await screen.findByRole('heading', { name: 'Your Statistics' })).toBeInTheDocument();
    expect(
      await screen.findAllByText(
        'Statistics are not available offline. They load when you are back online.',
      ),
    ).not.toHaveLength(0);
    expect(screen.queryByText('Loading statistics...')).not.toBeInTheDocument();
  });
});
