import { describe, expect, it } from 'vitest';
import { onFirstUse } from './on-first-use.js';

describe('onFirstUse', () => {
  it('loads nothing until called, then once for every caller', async () => {
    let loads = 0;
    const load = onFirstUse(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect(await load()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('tries again at the next call after a failed load', async () => {
    let loads = 0;
    const load = onFirstUse(async () => {
      loads += 1;
      if (loads === 1) throw new Error('not there yet');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('not there yet');
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
