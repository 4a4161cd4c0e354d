import { describe, expect, it } from 'vitest';
import { descriptionOrNull, TITLE_PATTERN } from './todo-fields';

describe('todo fields', () => {
  it('refuse in the title field what the API refuses, as a browser reads a pattern attribute', () => {
    // HTML's pattern matches the whole value, compiled with the v flag.
    const field = new RegExp(`^(?:${TITLE_PATTERN})$`, 'v');
    expect(['Buy milk', '  padded  ', 'x'].map((title) => field.test(title))).toEqual([
      true,
      true,
      true,
    ]);
    expect(['', '   ', '\t'].map((title) => field.test(title))).toEqual([false, false, false]);
  });

  it('send a description as the server keeps it: trimmed, null when blank', () => {
    expect(descriptionOrNull('  notes \n')).toBe('notes');
    expect(descriptionOrNull(' \n ')).toBeNull();
  });
});
