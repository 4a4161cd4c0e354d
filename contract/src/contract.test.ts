import { describe, expect, it } from 'vitest';
import {
  GROUP_COLORS,
  DEFAULT_GROUP_COLOR,
  STATISTIC_EVENTS,
  ImportBodySchema,
  TotalStatisticsSchema,
  withThousands,
} from './index.js';

describe('contract', () => {
  it('offers the 8 swatches of docs/product.md with blue as the default', () => {
    expect(GROUP_COLORS).toHaveLength(8);
    expect(GROUP_COLORS[0]).toBe(DEFAULT_GROUP_COLOR);
    expect(DEFAULT_GROUP_COLOR).toBe('#3B82F6');
  });

  it('names every counted event in the total statistics', () => {
    expect(STATISTIC_EVENTS).toEqual(Object.keys(TotalStatisticsSchema.properties));
    expect(STATISTIC_EVENTS).toHaveLength(12);
  });

  it('writes the limits in the API docs with thousands separators', () => {
    expect([7, 999, 1000, 10000, 1234567].map(withThousands)).toEqual([
      '7',
      '999',
      '1,000',
      '10,000',
      '1,234,567',
    ]);
    expect(ImportBodySchema.properties.file.description).toContain('10,000 todos');
  });
});
