import {
  Kind,
  TypeRegistry,
  type SchemaOptions,
  type Static,
  type TInteger,
  type TNumber,
  type TObject,
  type TSchema,
  type TString,
} from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * A nullable answer field: the schema's own type plus null, as a JSON Schema type list
 * (`type: ['string', 'null']`) rather than anyOf, since Fastify's serialiser runs a validator per
 * value to pick an anyOf branch, which cost most of a 200-todo answer
 * (docs/decisions/038-per-request-work.md). A TypeBox kind of its own, so that its TypeScript
 * type follows the schema it is given and TypeBox's Value checks it like any other schema.
 */
export interface TNullable<T extends NullableOf = NullableOf> extends TSchema {
  [Kind]: 'Nullable';
  static: Static<T> | null;
  type: [T['type'], 'null'];
}

type NullableOf = TString | TInteger | TNumber | TObject;

/** The schema null is added to; a symbol, so JSON Schema readers (Ajv, the serialiser) never see it. */
const Of = Symbol('nullable.of');

TypeRegistry.Set<TNullable & { [Of]: TSchema }>(
  'Nullable',
  (schema, value) => value === null || Value.Check(schema[Of], value),
);

export function Nullable<T extends NullableOf>(
  schema: T,
  options: SchemaOptions = {},
): TNullable<T> {
  return {
    ...schema,
    ...options,
    [Kind]: 'Nullable',
    [Of]: schema,
    type: [schema.type, 'null'],
  } as unknown as TNullable<T>;
}
