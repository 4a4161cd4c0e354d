import { describe, expect, it } from 'vitest';
import { draftOfSearch, searchOfDraft, shareDraftOf } from './share-draft';

describe('shareDraftOf', () => {
  it('takes the title, and keeps the page address as the description', () => {
    expect(
      shareDraftOf({ title: ' Sourdough  basics ', text: '', url: 'https://example.com/bread' }),
    ).toEqual({ title: 'Sourdough basics', description: 'https://example.com/bread' });
  });

  it('reads an Android share, whose address is in the text, without writing it twice', () => {
    expect(
      shareDraftOf({ title: 'Sourdough basics', text: 'https://example.com/bread', url: '' }),
    ).toEqual({ title: 'Sourdough basics', description: 'https://example.com/bread' });
  });

  it("makes shared text without a title the text's first line, the rest the description", () => {
    expect(shareDraftOf({ text: 'Call the bank\nabout the card\n', url: null })).toEqual({
      title: 'Call the bank',
      description: 'about the card',
    });
  });

  it('makes a bare address the title, and nothing shared no draft', () => {
    expect(shareDraftOf({ url: 'https://example.com/' })).toEqual({
      title: 'https://example.com/',
      description: '',
    });
    expect(shareDraftOf({ title: '  ', text: '', url: '' })).toBeNull();
  });

  it('goes through the address of /todos and back unchanged', () => {
    const draft = { title: 'Read: a & b #1', description: 'https://example.com/?a=1&b=2' };
    expect(draftOfSearch(searchOfDraft(draft))).toEqual(draft);
    expect(draftOfSearch('view=today')).toBeNull();
  });
});
