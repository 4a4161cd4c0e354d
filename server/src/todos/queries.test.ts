import { describe, expect, it } from 'vitest';
import { todoWithTagNamesOf } from './queries.js';
import { COLUMNS } from './rows.js';

describe('the list’s PostgreSQL rows', () => {
  it('take each value as the column the select names in its place', () => {
    // The select is COLUMNS, then the tags' names: the literal must follow that order.
    const values = [...COLUMNS, 'tag_names'].map((column) => `value of ${column}`);
    expect(Object.entries(todoWithTagNamesOf(values))).toEqual(
      [...COLUMNS, 'tag_names'].map((column) => [column, `value of ${column}`]),
    );
  });
});
