import { Type } from '@sinclair/typebox';
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
});
