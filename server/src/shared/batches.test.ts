import { describe, expect, it } from 'vitest';
import { batches } from './batches.js';

describe('batches', () => {
  it('slices items 500 at a time, in order, and yields nothing for none', () => {
    const items = Array.from({ length: 1_001 }, (_, i) => i);
    expect([...batches(items)].map((batch) => [batch[0], batch.length])).toEqual([
      [0, 500],
      [500, 500],
      [1000, 1],
    ]);
    expect([...batches([])]).toEqual([]);
  });

  it('slices smaller when asked, never larger than 500 nor smaller than 1', () => {
    const items = Array.from({ length: 250 }, (_, i) => i);
    expect([...batches(items, 100)].map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect([...batches([...items, ...items, ...items], 1_000)].map((b) => b.length)).toEqual([
      500, 250,
    ]);
    expect([...batches([1, 2], 0)]).toEqual([[1], [2]]);
  });
});
