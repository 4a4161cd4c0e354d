import { describe, expect, it } from 'vitest';
import { dailyRecords } from '#web/test/fake-api';
import { BAR_GEOMETRY, chartBars, chartWidth, niceTicks } from './chart-scale';

describe('chartBars (docs/product.md, Statistics screen)', () => {
  it('takes the first N records and reverses them: oldest left, newest right', () => {
    const records = dailyRecords(30, (index) => ({ todosCreated: index }), '2026-03-31');
    const bars = chartBars(records, 7);
    expect(bars.map((bar) => bar.record.date)).toEqual([
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
    ]);
  });

  it('scales the largest total to 200 px and the rest in proportion', () => {
    const records = dailyRecords(7, (index) =>
      index === 0
        ? { todosCreated: 4, todosCompleted: 2, groupsCreated: 1, logins: 1 }
        : index === 1
          ? { todosCreated: 2, logins: 2 }
          : { logins: 1 },
    );
    const bars = chartBars(records, 7);
    const newest = bars[6];
    expect(newest?.total).toBe(8);
    expect(newest?.height).toBe(200);
    expect(newest?.segments.map((segment) => segment.height)).toEqual([100, 50, 25, 25]);
    expect(bars[5]?.height).toBe(100);
    expect(bars[0]?.height).toBe(25);
  });

  it('never draws a bar under 5 px, zero days included', () => {
    const records = dailyRecords(14, (index) =>
      index === 0 ? { todosCreated: 100 } : index === 1 ? { logins: 1 } : {},
    );
    const bars = chartBars(records, 14);
    expect(bars[13]?.height).toBe(200);
    expect(bars[12]?.height).toBe(5); // 1/100 of 200 px is 2 px: raised to 5
    expect(bars[0]?.height).toBe(5); // nothing that day
    expect(bars[0]?.segments.every((segment) => segment.height === 0)).toBe(true);
  });

  it('draws 5 px stubs when every day is empty (no division by zero)', () => {
    const bars = chartBars(dailyRecords(30), 30);
    expect(bars).toHaveLength(30);
    expect(bars.every((bar) => bar.height === 5)).toBe(true);
  });

  it('uses width/gap 24/8, 16/4 and 12/2 for 7, 14 and 30 days', () => {
    expect(BAR_GEOMETRY).toEqual({
      7: { width: 24, gap: 8 },
      14: { width: 16, gap: 4 },
      30: { width: 12, gap: 2 },
    });
    expect(chartWidth(7, 7)).toBe(7 * 24 + 6 * 8);
    expect(chartWidth(14, 14)).toBe(14 * 16 + 13 * 4);
    expect(chartWidth(30, 30)).toBe(30 * 12 + 29 * 2);
  });
});

describe('niceTicks (the value axis)', () => {
  it('steps by 1, 2 or 5 times a power of ten, from 0 and never above the largest value', () => {
    expect(niceTicks(0)).toEqual([0]);
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6]);
    expect(niceTicks(10)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(38)).toEqual([0, 10, 20, 30]);
    expect(niceTicks(120)).toEqual([0, 50, 100]);
    expect(niceTicks(9, 4)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(12)).toEqual([0, 5, 10]);
  });
});
