import type { Insights } from '@tally/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyInsights, fakeBackend, json } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

/** 52 weeks to Tuesday 31 March 2026 (from Monday 7 April 2025): 359 days. */
function sampleInsights(): Insights {
  const insights: Insights = {
    ...emptyInsights(52, '2026-03-31'),
    streak: { current: 5, longest: 12, lastDay: '2026-03-31' },
    byWeekday: [3, 1, 0, 0, 0, 0, 2],
    byHour: Array.from({ length: 24 }, (_, hour) => (hour === 9 ? 4 : hour === 21 ? 2 : 0)),
    leadTime: { medianHours: 3.5, p75Hours: 60, sample: 6 },
    onTime: { onTime: 1, late: 2, rate: 1 / 3 },
    byGroup: [
      { groupId: 3, name: 'Work', color: '#EF4444', completed: 4 },
      { groupId: null, name: 'No Group', color: null, completed: 2 },
    ],
    byTag: [
      { name: 'home', color: '#10B981', completed: 3 },
      { name: 'errand', color: null, completed: 1 },
    ],
    week: { thisWeek: 4, lastWeek: 3 },
  };
  insights.heatmap = insights.heatmap.map((day) =>
    day.date === '2026-03-31'
      ? { ...day, completed: 2 }
      : day.date === '2026-03-24'
        ? { ...day, completed: 12 }
        : day,
  );
  return insights;
}

const insightsRegion = () => screen.getByRole('region', { name: 'Insights' });
const grid = () => screen.getByRole('grid', { name: 'Completions per day, last 52 weeks' });
/** A day of the heatmap by its name (a role query over a year of cells is slow in jsdom). */
const day = (name: string) => grid().querySelector(`[role="gridcell"][aria-label="${name}"]`);

/** jsdom has no object URLs and no downloads: keeps what the page saves. */
function captureDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  let nextBlob: Blob | undefined;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    nextBlob = blob;
    return 'blob:tally/csv';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    if (nextBlob) saved.push({ name: this.download, blob: nextBlob });
  });
  return saved;
}

/** jsdom's Blob has no text(): read it as the browser's FileReader would. */
function readBlob(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!blob) return reject(new Error('Nothing was saved'));
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Unreadable Blob'));
    reader.readAsText(blob);
  });
}

const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
beforeEach(() => {
  storeSession('alice');
});
afterEach(() => {
  URL.createObjectURL = original.create;
  URL.revokeObjectURL = original.revoke;
});

describe('/statistics, Insights', () => {
  it('asks for 52 weeks and shows the streak, lead time, on-time rate and the weeks', async () => {
    const { calls } = fakeBackend({ insights: sampleInsights });
    renderApp('/statistics');
    await screen.findByRole('grid');
    const region = insightsRegion();
    const figure = (label: string) =>
      within(region).getByText(label, { selector: 'dt' }).closest('div') as HTMLElement;

    expect(figure('Current streak')).toHaveTextContent(
      'Current streak5 daysLongest: 12 daysLast completion: Tue 31 Mar',
    );
    expect(figure('Median time to complete')).toHaveTextContent(
      'Median time to complete3.5 hours75th percentile: 2.5 daysFrom 6 completed todos',
    );
    expect(figure('On-time rate')).toHaveTextContent(
      'On-time rate33%1 on time, 2 lateOf todos with a due date',
    );
    expect(figure('Completed this week')).toHaveTextContent(
      'Completed this week4Last week: 31 more than last week',
    );
    expect(
      calls.filter((c) => c.path === '/api/statistics/insights').map((c) => c.search.get('weeks')),
    ).toEqual(['52']);
    // The sections of the specification come first, unchanged.
    expect(
      screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent),
    ).toEqual(['All Time Statistics', 'Recent Activity', 'Additional Statistics', 'Insights']);
  });

  it(
    'labels every day of the heatmap, and moves one tab stop through it with the keys',
    {
      timeout: 20_000,
    },
    async () => {
      fakeBackend({ insights: sampleInsights });
      const { user } = renderApp('/statistics');
      await screen.findByRole('grid');
      const cells = [...grid().querySelectorAll<HTMLElement>('[role="gridcell"]')];
      expect(cells).toHaveLength(359);
      expect(within(grid()).getAllByRole('row')).toHaveLength(7);
      expect(cells.filter((cell) => cell.tabIndex === 0)).toHaveLength(1);
      const today = day('2 completed on Tue 31 Mar');
      expect(today).toHaveAttribute('tabindex', '0');
      expect(day('12 completed on Tue 24 Mar')).toHaveAttribute('data-level', '4');
      expect(screen.getByText('14 completed in the last 52 weeks')).toBeInTheDocument();

      // One tab stop: from the heatmap's last button into today, and on out of the grid.
      act(() =>
        screen.getByRole('button', { name: 'Download CSV of completions per day' }).focus(),
      );
      await user.tab();
      expect(today).toHaveFocus();
      await user.keyboard('{ArrowLeft}');
      expect(document.activeElement).toHaveAccessibleName('12 completed on Tue 24 Mar');
      expect(screen.getByTestId('heatmap-active-day')).toHaveTextContent(
        '12 completed on Tue 24 Mar',
      );
      await user.keyboard('{ArrowUp}');
      expect(document.activeElement).toHaveAccessibleName('0 completed on Mon 23 Mar');
      await user.keyboard('{ArrowUp}');
      expect(document.activeElement).toHaveAccessibleName('0 completed on Sun 22 Mar');
      await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
      expect(document.activeElement).toHaveAccessibleName('0 completed on Wed 25 Mar');
      // No day after today: the focus stays.
      await user.keyboard('{ArrowRight}');
      expect(document.activeElement).toHaveAccessibleName('0 completed on Wed 25 Mar');
      await user.keyboard('{Home}');
      expect(document.activeElement).toHaveAccessibleName('0 completed on Mon 7 Apr');
      await user.keyboard('{ArrowRight}');
      expect(document.activeElement).toHaveAccessibleName('0 completed on Mon 14 Apr');
      await user.keyboard('{End}');
      expect(today).toHaveFocus();
      expect(cells.filter((cell) => cell.tabIndex === 0)).toEqual([today]);
      await user.tab();
      expect(document.activeElement).toHaveAccessibleName('Show as table: completions by weekday');
      await user.tab({ shift: true });
      expect(today).toHaveFocus();
    },
  );

  it('draws weekday and hour columns, groups in their colours, and a legend', async () => {
    fakeBackend({ insights: sampleInsights });
    renderApp('/statistics');
    await screen.findByRole('grid');
    const weekdays = within(screen.getByTestId('weekday-bars')).getAllByRole('img');
    expect(weekdays.map((bar) => bar.getAttribute('aria-label'))).toEqual([
      'Monday: 3 completed',
      'Tuesday: 1 completed',
      'Wednesday: 0 completed',
      'Thursday: 0 completed',
      'Friday: 0 completed',
      'Saturday: 0 completed',
      'Sunday: 2 completed',
    ]);
    expect(weekdays[0]).toHaveStyle({ height: '140px' });
    expect(screen.getByText('Most on Mondays')).toBeInTheDocument();
    const hours = within(screen.getByTestId('hour-bars')).getAllByRole('img');
    expect(hours).toHaveLength(24);
    expect(hours[9]).toHaveAccessibleName('09:00–09:59: 4 completed');
    expect(screen.getByText('Most at 09:00–09:59')).toBeInTheDocument();

    const groups = within(screen.getByTestId('group-bars')).getAllByRole('listitem');
    expect(groups.map((group) => group.textContent)).toEqual([
      'Work4 completed',
      'No Group2 completed',
    ]);
    const [work, none] = groups.map((group) => group.querySelector('[data-color]'));
    expect(work).toHaveStyle({ backgroundColor: '#EF4444', width: '100%' });
    expect(none).toHaveClass('bg-slate-400');
    expect(none).toHaveStyle({ width: '50%' });

    const tags = within(screen.getByTestId('tag-bars')).getAllByRole('listitem');
    expect(tags.map((tag) => tag.textContent)).toEqual(['home3 completed', 'errand1 completed']);
    expect(tags[0]?.querySelector('[data-color]')).toHaveStyle({ backgroundColor: '#10B981' });
    expect(tags[1]?.querySelector('[data-color]')).toHaveStyle({ width: '33.33333333333333%' });

    const legend = screen.getByRole('list', { name: 'Legend: completed per day' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['0', '1–3', '4–6', '7–9', '10–12']);
  });

  it('shows each chart as a table on request', { timeout: 20_000 }, async () => {
    fakeBackend({ insights: sampleInsights });
    const { user } = renderApp('/statistics');
    await screen.findByRole('grid');

    await user.click(screen.getByRole('button', { name: 'Show as table: completions by weekday' }));
    const weekdays = screen.getByRole('table', { name: 'Completions by weekday' });
    expect(
      within(weekdays)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'WeekdayCompleted',
      'Monday3',
      'Tuesday1',
      'Wednesday0',
      'Thursday0',
      'Friday0',
      'Saturday0',
      'Sunday2',
    ]);
    expect(screen.queryByTestId('weekday-bars')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show as chart: completions by weekday' }));
    expect(screen.getByTestId('weekday-bars')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show as table: completions per day' }));
    const days = screen.getByRole('table', { name: 'Completions per day' });
    const rows = days.querySelectorAll('tr');
    expect(rows).toHaveLength(360);
    expect(rows[1]).toHaveTextContent('Mon 7 Apr 20250');
    expect(rows[359]).toHaveTextContent('Tue 31 Mar 20262');
    expect(screen.getByRole('region', { name: 'Completions per day, table' })).toHaveAttribute(
      'tabindex',
      '0',
    );
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show as table: completions by hour' }));
    const hours = within(screen.getByRole('table', { name: 'Completions by hour' }));
    expect(hours.getAllByRole('row')[10]).toHaveTextContent('09:00–09:594');

    await user.click(screen.getByRole('button', { name: 'Show as table: completions by group' }));
    const groups = within(screen.getByRole('table', { name: 'Completions by group' }));
    expect(groups.getAllByRole('row').map((row) => row.textContent)).toEqual([
      'GroupCompleted',
      'Work4',
      'No Group2',
    ]);
  });

  it('downloads each chart as CSV from the data it shows', async () => {
    const insights = sampleInsights();
    fakeBackend({ insights: () => insights });
    const { user } = renderApp('/statistics');
    await screen.findByRole('grid');
    const saved = captureDownloads();

    await user.click(screen.getByRole('button', { name: 'Download CSV of completions per day' }));
    await user.click(
      screen.getByRole('button', { name: 'Download CSV of completions by weekday' }),
    );
    await user.click(screen.getByRole('button', { name: 'Download CSV of completions by hour' }));
    await user.click(screen.getByRole('button', { name: 'Download CSV of completions by group' }));
    await user.click(screen.getByRole('button', { name: 'Download CSV of these figures' }));

    expect(saved.map((file) => file.name)).toEqual([
      'tally-completions-per-day-2026-03-31.csv',
      'tally-completions-by-weekday-2026-03-31.csv',
      'tally-completions-by-hour-2026-03-31.csv',
      'tally-completions-by-group-2026-03-31.csv',
      'tally-insights-2026-03-31.csv',
    ]);
    expect(saved[0]?.blob.type).toBe('text/csv;charset=utf-8');
    const heatmap = await readBlob(saved[0]?.blob);
    expect(heatmap).toBe(
      'date,completed\r\n' +
        insights.heatmap.map((day) => `${day.date},${day.completed}\r\n`).join(''),
    );
    expect(await readBlob(saved[3]?.blob)).toBe(
      'group_id,group,color,completed\r\n3,Work,#EF4444,4\r\n,No Group,,2\r\n',
    );
    const figures = await readBlob(saved[4]?.blob);
    expect(figures).toContain('current_streak_days,5\r\n');
    expect(figures).toContain('on_time_rate,0.3333333333333333\r\n');
  });

  it('tells a new user there is nothing yet, with the figures at zero and no charts', async () => {
    fakeBackend();
    renderApp('/statistics');
    expect(
      await screen.findByText(
        'No todos completed in the last 52 weeks yet. Complete one and your insights start here.',
      ),
    ).toBeInTheDocument();
    const region = insightsRegion();
    expect(within(region).getByText('0 days')).toBeInTheDocument();
    expect(within(region).getByText('No completions yet')).toBeInTheDocument();
    expect(within(region).getByText('No completed todos yet')).toBeInTheDocument();
    expect(within(region).getByText('No completed todo had a due date')).toBeInTheDocument();
    expect(within(region).getByText('Same as last week')).toBeInTheDocument();
    expect(within(region).getAllByText('—')).toHaveLength(2);
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
    expect(within(region).queryByRole('button')).toBeNull();
  });

  it('shows a failed load with Retry, and loads again', async () => {
    let fail = true;
    fakeBackend(
      {},
      {
        'GET /api/statistics/insights': () =>
          fail ? json({ error: 'Boom' }, 500) : json(sampleInsights()),
      },
    );
    const { user } = renderApp('/statistics');
    const alert = await within(await screen.findByRole('region', { name: 'Insights' })).findByRole(
      'alert',
    );
    expect(alert).toHaveTextContent('Server error - please try again later');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByRole('grid')).toBeInTheDocument());
  });
});
