import { describe, expect, it } from 'vitest';
import { searchWords } from './search-words.js';

describe('searchWords', () => {
  it('lowers, drops accents, decomposes ligatures and symbols, and keeps letters and digits', () => {
    expect(searchWords('Crème BRÛLÉE, ﬁne-tune İstanbul № 5!')).toEqual([
      'creme',
      'brulee',
      'fine',
      'tune',
      'istanbul',
      'no',
      '5',
    ]);
    expect(searchWords(' -- ')).toEqual([]);
  });
});
