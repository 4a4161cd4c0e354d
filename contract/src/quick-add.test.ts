import { describe, expect, it } from 'vitest';
import { ORDINAL_WORDS, readQuickGroup, readQuickPriority, readQuickTags } from './quick-add.js';

describe('quick add tags and priority', () => {
  it('reads @tags at the start of a word, once each, and leaves e-mail addresses', () => {
    const text = 'Mail me@example.com about @Work and @home then @work again';
    const tags = readQuickTags(text, new Set());
    expect(tags.map((tag) => tag.name)).toEqual(['Work', 'home']);
    expect(tags.map((tag) => text.slice(...tag.range))).toEqual(['@Work', '@home']);
    expect(readQuickTags('@a @b', new Set(['tag:a'])).map((tag) => tag.name)).toEqual(['b']);
    expect(readQuickTags('@' + 'x'.repeat(31), new Set())).toEqual([]);
  });

  it("reads Todoist's p1-p3 (p1 highest) and !, !!, !!!; the first one written counts", () => {
    const read = (text: string, dismissed: string[] = []) =>
      readQuickPriority(text, new Set(dismissed))?.priority ?? 0;
    expect([read('Pay p1'), read('Pay p2'), read('Pay P3'), read('Pay p4')]).toEqual([3, 2, 1, 0]);
    expect([read('Pay !'), read('Pay !!'), read('Pay !!!'), read('Pay !!!!')]).toEqual([
      1, 2, 3, 0,
    ]);
    expect([read('Hello!'), read('top1'), read('p1x')]).toEqual([0, 0, 0]);
    expect(read('!!! then p3')).toBe(3);
    expect(read('!!! then p3', ['priority:!!!'])).toBe(1);
  });
});

describe('#Group', () => {
  const groups = [
    { id: 1, name: 'Home' },
    { id: 2, name: 'Home office' },
  ];
  const read = (text: string, dismissed: string[] = []) =>
    readQuickGroup(text, groups, new Set(dismissed));

  it('names a group in any case, the longest name that fits, at the start of a word', () => {
    expect(read('Fix the printer #home office')).toMatchObject({
      group: { id: 2 },
      range: [16, 28],
      words: '#home office',
    });
    expect(read('Dust #Home, then rest')?.group.id).toBe(1);
    expect(read('Dust #Homework')).toBeNull();
    expect(read('Issue#Home')).toBeNull();
    expect(read('#Nowhere')).toBeNull();
  });

  it('leaves a dismissed group in the title', () => {
    expect(read('Dust #Home', ['group:#home'])).toBeNull();
  });
});

describe('ordinal words of repeat rules', () => {
  it('name the 1st to 5th weekday of a month in words and digits, and the last as -1', () => {
    expect(['first', '2nd', 'third', '4th', 'fifth', 'last'].map((w) => ORDINAL_WORDS[w])).toEqual([
      1, 2, 3, 4, 5, -1,
    ]);
    expect(ORDINAL_WORDS.sixth).toBeUndefined();
  });
});
