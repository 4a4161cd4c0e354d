import { describe, expect, it } from 'vitest';
import { emptyInsights } from '#web/test/fake-api';
import { heatLevel, heatmapLayout, levelRanges, moveFocus } from './heatmap';

describe('heatLevel and levelRanges (the colour steps and the legend)', () => {
  it('gives each count its own step up to 4 on the busiest day', () => {
    expect([0, 1, 2, 3].map((n) => heatLevel(n, 3))).toEqual([0, 1, 2, 3]);
    expect(levelRanges(3)).toEqual(['0', '1', '2', '3', '']);
    expect(levelRanges(0)).toEqual(['0', '', '', '', '']);
  });

  it('splits larger counts in quarters of the busiest day', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 9, 10].map((n) => heatLevel(n, 10))).toEqual([
      0, 1, 1, 2, 2, 2, 3, 3, 4, 4,
    ]);
    expect(levelRanges(10)).toEqual(['0', '1–2', '3–5', '6–7', '8–10']);
    expect(levelRanges(5)).toEqual(['0', '1', '2', '3', '4–5']);
  });
});

describe('heatmapLayout', () => {
  // 52 weeks to Tuesday 31 March 2026: from Monday 7 April 2025, 51 weeks and 2 days.
  const days = emptyInsights(52, '2026-03-31').heatmap;

  it('puts weeks in columns and weekdays in rows, Monday first', () => {
    const layout = heatmapLayout(days);
    expect(days).toHaveLength(51 * 7 + 2);
    expect(layout.columns).toBe(52);
    expect(layout.rows.map((row) => row.length)).toEqual([52, 52, 51, 51, 51, 51, 51]);
    expect(layout.rows[0]?.[0]).toMatchObject({ date: '2025-04-07', column: 0, row: 0 });
    expect(layout.rows[1]?.[51]).toMatchObject({ date: '2026-03-31', column: 51, row: 1 });
    expect(layout.rows[6]?.[0]).toMatchObject({ date: '2025-04-13', column: 0, row: 6 });
  });

  it('names each month over the week holding its 1st, and the first column if there is room', () => {
    const { months } = heatmapLayout(days);
    expect(months.map((month) => month.name)).toEqual([
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sept', // as en-GB's Intl writes it
      'Oct',
      'Nov',
      'Dec',
      'Jan',
      'Feb',
      'Mar',
    ]);
    // 1 May 2025 is a Thursday of the fourth week.
    expect(months[1]).toEqual({ column: 3, name: 'May' });
    // A first column right before a month's 1st gives way to it.
    const late = heatmapLayout(emptyInsights(3, '2026-03-04').heatmap);
    // From Monday 16 February: Sunday 1 March closes the second week.
    expect(late.months).toEqual([{ column: 1, name: 'Mar' }]);
  });

  it('pads the first column when the days do not start on a Monday', () => {
    const layout = heatmapLayout([
      { date: '2026-03-04', completed: 1 },
      { date: '2026-03-05', completed: 4 },
    ]);
    expect(layout.cells.map((cell) => [cell.column, cell.row, cell.level])).toEqual([
      [0, 2, 1],
      [0, 3, 4],
    ]);
    expect(layout).toMatchObject({ max: 4, total: 5, columns: 1 });
  });
});

describe('moveFocus (roving focus over the days)', () => {
  it('moves by a day up and down, by a week left and right, Home and End to the ends', () => {
    expect(moveFocus('ArrowDown', 10, 100)).toBe(11);
    expect(moveFocus('ArrowUp', 10, 100)).toBe(9);
    expect(moveFocus('ArrowRight', 10, 100)).toBe(17);
    expect(moveFocus('ArrowLeft', 10, 100)).toBe(3);
    expect(moveFocus('Home', 10, 100)).toBe(0);
    expect(moveFocus('End', 10, 100)).toBe(99);
  });

  it('stays put at the edges and ignores other keys', () => {
    expect(moveFocus('ArrowLeft', 3, 100)).toBe(3);
    expect(moveFocus('ArrowRight', 95, 100)).toBe(95);
    expect(moveFocus('ArrowDown', 99, 100)).toBe(99);
    expect(moveFocus('ArrowUp', 0, 100)).toBe(0);
    expect(moveFocus('a', 10, 100)).toBeNull();
    expect(moveFocus('Home', 0, 0)).toBeNull();
  });
});
