import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '#web/test/render';
import { dailyRecords } from '#web/test/fake-api';
import { ActivityChart } from './ActivityChart';

describe('ActivityChart', () => {
  it('draws each bar at its scaled height and width, labelled with its day and numbers', () => {
    const records = dailyRecords(
      7,
      (index) =>
        index === 0
          ? { todosCreated: 3, todosCompleted: 1, groupsCreated: 0, logins: 1 }
          : index === 6
            ? { logins: 10 }
            : {},
      '2026-01-05',
    );
    renderTranslated(<ActivityChart records={records} range={7} />);
    const bars = within(screen.getByTestId('activity-bars')).getAllByRole('img');

    expect(bars).toHaveLength(7);
    // Oldest on the left: 2025-12-30 with 10 logins, the tallest bar.
    expect(bars[0]).toHaveAccessibleName(
      // The app's date format (lib/date-format), the year shown when it is not this one.
      /^Tue,? 30 Dec( 2025)?: 0 todos created, 0 todos completed, 0 groups created, 10 logins$/,
    );
    expect(bars[0]).toHaveStyle({ height: '200px', minWidth: '24px' });
    expect(bars[6]).toHaveAccessibleName(
      /^Mon,? 5 Jan( 2026)?: 3 todos created, 1 todo completed, 0 groups created, 1 login$/,
    );
    expect(bars[6]).toHaveAttribute('title', bars[6]?.getAttribute('aria-label'));
    expect(bars[6]).toHaveStyle({ height: '100px' });
    expect(bars[3]).toHaveStyle({ height: '5px' });
  });

  it('has a legend naming the four series', () => {
    renderTranslated(<ActivityChart records={dailyRecords(14)} range={14} />);
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Todos created', 'Todos completed', 'Groups created', 'Logins']);
    const bars = within(screen.getByTestId('activity-bars')).getAllByRole('img');
    expect(bars[0]).toHaveStyle({ minWidth: '16px', height: '5px' });
  });

  it('has a value axis: numbered ticks at the heights bars of those totals reach', () => {
    const records = dailyRecords(7, (index) => (index === 0 ? { todosCreated: 10 } : {}));
    renderTranslated(<ActivityChart records={records} range={7} />);
    const axis = screen.getByTestId('activity-axis');
    expect(axis).toHaveAttribute('aria-hidden', 'true');
    const ticks = [...axis.children] as HTMLElement[];
    expect(ticks.map((tick) => tick.textContent)).toEqual(['0', '2', '4', '6', '8', '10']);
    expect(ticks.map((tick) => tick.style.bottom)).toEqual([
      '0px',
      '40px',
      '80px',
      '120px',
      '160px',
      '200px',
    ]);
    // The bars keep their names and scale.
    const bars = within(screen.getByTestId('activity-bars')).getAllByRole('img');
    expect(bars[6]).toHaveStyle({ height: '200px' });
  });

  it('numbers only 0 when nothing happened', () => {
    renderTranslated(<ActivityChart records={dailyRecords(7)} range={7} />);
    expect(screen.getByTestId('activity-axis')).toHaveTextContent(/^0$/);
  });
});
