import { describe, expect, it } from 'vitest';
import { firstLine } from './subtasks';

describe('firstLine', () => {
  it('keeps the first line as written, underscores and a lone asterisk included', () => {
    expect(firstLine('\n  rename my_file_name to 2*3 __init__\nsecond line')).toBe(
      'rename my_file_name to 2*3 __init__',
    );
    expect(firstLine('<img src=x onerror="window.__xss = 1"> & "quotes"')).toBe(
      '<img src=x onerror="window.__xss = 1"> & "quotes"',
    );
  });

  it('drops a leading marker, emphasis and code marks, and a link address', () => {
    expect(firstLine('- [ ] buy [milk](https://shop.example)')).toBe('buy milk');
    expect(firstLine('## Plan')).toBe('Plan');
    expect(firstLine('Everything by **Friday**, *then* `rest`')).toBe(
      'Everything by Friday, then rest',
    );
    expect(firstLine('')).toBe('');
  });
});
