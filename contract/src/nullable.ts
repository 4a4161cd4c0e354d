import {
  Type,
  type SchemaOptions,
  type Static,
  type TInteger,
  type TNumber,
  type TObject,
  type TString,
  type TUnsafe,
} from '@sinclair/typebox';

/**
 * A nullable answer field: the schema's own type plus null, as a JSON Schema type list
 * (`type: ['string', 'null']`) rather than anyOf, since Fastify's serialiser runs a validator per
 * value to pick an anyOf branch, which cost most of a 200-todo answer
 * (docs/decisions/038-per-request-work.md). Its TypeScript type follows the schema it is given.
 */
export function Nullable<T extends TString | TInteger | TNumber | TObject>(
  schema: T,
  options: SchemaOptions = {},
): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [schema.type, 'null'] });
}
