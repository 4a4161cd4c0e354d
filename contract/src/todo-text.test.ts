import { describe, expect, it } from 'vitest';
import { cleanDescription, cleanTitle } from './todo-text.js';

describe('todo texts', () => {
  it('trim titles and descriptions, and keep a blank or absent description as null', () => {
    expect(cleanTitle('  Pay rent \n')).toBe('Pay rent');
    expect(cleanDescription('\n  first line\nsecond  ')).toBe('first line\nsecond');
    expect([cleanDescription('  \n '), cleanDescription(''), cleanDescription(null)]).toEqual([
      null,
      null,
      null,
    ]);
    expect(cleanDescription(undefined)).toBeNull();
  });
});
