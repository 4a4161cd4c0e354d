import { describe, expect, it } from 'vitest';
import { suggestionsAt } from './quick-add-suggestions';

const groups = [{ name: 'Home' }, { name: 'Work stuff' }, { name: 'Health' }];
const tags = ['bills', 'book', 'phone'];
const at = (text: string) => suggestionsAt(text, text.length, groups, tags);

describe('quick add suggestions', () => {
  it('offers the groups starting with what follows # and tags after @', () => {
    expect(at('Pay rent #h')?.options.map((option) => option.label)).toEqual([
      'Home',
      'Health',
      'Create group h',
    ]);
    expect(at('Pay rent #')?.options.map((option) => option.label)).toEqual([
      'Home',
      'Work stuff',
      'Health',
    ]);
    expect(at('Pay rent @b')).toMatchObject({
      start: 9,
      end: 11,
      options: [
        { label: '@bills', insert: '@bills ' },
        { label: '@book', insert: '@book ' },
      ],
    });
  });

  it('offers to create a group no one has, and nothing once a name is whole', () => {
    expect(at('Plant bulbs #Garden')?.options).toEqual([
      { label: 'Create group Garden', insert: '#Garden ', create: 'Garden' },
    ]);
    expect(at('Pay rent #home')).toBeNull();
    expect(at('Pay rent @bills')).toBeNull();
  });

  it('reads only a word starting with the sign, at the caret', () => {
    expect(at('Mail me@example')).toBeNull();
    expect(at('Pay rent #h tomorrow')).toBeNull();
    expect(suggestionsAt('Pay #h tomorrow', 6, groups, tags)).toMatchObject({ start: 4, end: 6 });
  });
});
