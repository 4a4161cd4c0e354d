import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { Nullable } from './nullable.js';

describe('Nullable', () => {
  it('is the schema with null added to its type list, keeping its other keywords', () => {
    expect(Nullable(Type.Integer({ minimum: 1 }), { description: 'or none' })).toMatchObject({
      type: ['integer', 'null'],
      minimum: 1,
      description: 'or none',
    });
  });

  it("is checked by TypeBox's Value as its schema or null", () => {
    const schema = Type.Object({
      due: Nullable(Type.String({ format: 'date' })),
      n: Nullable(Type.Integer()),
    });
    expect(Value.Check(schema, { due: null, n: 3 })).toBe(true);
    expect(Value.Check(schema, { due: null, n: 1.5 })).toBe(false);
    expect(Value.Check(schema, { due: 5, n: null })).toBe(false);
    expect(JSON.parse(JSON.stringify(Nullable(Type.Integer())))).toEqual({
      type: ['integer', 'null'],
    });
  });
});
