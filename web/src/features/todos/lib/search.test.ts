import { describe, expect, it } from 'vitest';
import { makeTodo } from '#web/test/fake-api';
import { matchesSearch, mergeSearchResults, normalizeSearchText, searchTerms } from './search';

describe('todo search in the browser', () => {
  it('normalises as the server does: NFKD, no combining marks, lower case', () => {
    expect(normalizeSearchText('Crème Brûlée')).toBe('creme brulee');
    expect(normalizeSearchText('ÅNGSTRÖM')).toBe('angstrom');
    expect(normalizeSearchText('ﬁle №5')).toBe('file no5');
    expect(searchTerms('  Café   AU lait ')).toEqual(['cafe', 'au', 'lait']);
    expect(searchTerms('   ')).toEqual([]);
    // Punctuation separates words, as on the server: "buy-milk" finds "Buy milk".
    expect(searchTerms('Buy-milk, now!')).toEqual(['buy', 'milk', 'now']);
    expect(searchTerms('"*" OR (NEAR)')).toEqual(['or', 'near']);
  });

  it('finds every word in the title or the description, whatever the case and accents', () => {
    const todo = makeTodo({ id: 1, title: 'Café with Zoë', description: 'Bring the RÉSUMÉ' });
    expect(matchesSearch(todo, searchTerms('cafe'))).toBe(true);
    expect(matchesSearch(todo, searchTerms('ZOE resume'))).toBe(true);
    expect(matchesSearch(todo, searchTerms('résu caf'))).toBe(true);
    expect(matchesSearch(todo, searchTerms('cafe tea'))).toBe(false);
    expect(matchesSearch(makeTodo({ id: 2, title: 'Tea' }), searchTerms('bring'))).toBe(false);
  });

  it('lists the loaded matches, then the server matches that are not loaded', () => {
    const loaded = [
      makeTodo({ id: 1, title: 'Buy milk' }),
      makeTodo({ id: 2, title: 'Call mum' }),
      // Renamed here since the server answered: the browser's version counts.
      makeTodo({ id: 3, title: 'Sell bike' }),
    ];
    const fromServer = [
      makeTodo({ id: 3, title: 'Buy bike' }),
      makeTodo({ id: 9, title: 'Buy bread' }),
      makeTodo({ id: 1, title: 'Buy milk' }),
    ];
    const ids = mergeSearchResults(loaded, searchTerms('buy'), fromServer).map((t) => t.id);
    expect(ids).toEqual([1, 9]);
  });
});
