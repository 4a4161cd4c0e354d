import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fastJsonStringify, { type Schema as SerializerSchema } from 'fast-json-stringify';
import fp from 'fastify-plugin';
import { AppError, badRequest } from '../shared/errors.js';

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const common: Options = {
  allErrors: false,
  // Keeps the offending value on each error, so messages can say what is wrong with it.
  verbose: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
};

/** A validator of JSON bodies with the API's rules, for checks outside a request (the CLI). */
export const createBodyValidator = (): Ajv =>
  addFormats(new Ajv({ ...common, coerceTypes: false }));

const utf8 = new TextDecoder('utf-8', { fatal: true });
// With the u flag a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The first string (value or key) in a parsed body that is not well-formed UTF-16 (a lone
 * surrogate, sent as a JSON escape such as "\ud800"), as a field name; null when there is none.
 * Iterative, so deeply nested input cannot exhaust the stack.
 */
function illFormedField(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, 'body']];
  while (stack.length > 0) {
    const [current, field] = stack.pop() as [unknown, string];
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return field;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        if (LONE_SURROGATE.test(key)) return field;
        // Top-level fields are named; anything deeper is reported against its top-level field.
        stack.push([child, field === 'body' && !Array.isArray(current) ? key : field]);
      }
    }
  }
  return null;
}

/**
 * A validator compiled on its first call. Compiling every route's schemas at start took most of
 * the server's start-up work (docs/performance.md, Footprint); a route that is never called
 * never pays for it. `schemaEnv` marks it as an Ajv function for Fastify, which then passes the
 * parent object so that Ajv can coerce or default the root value (query strings, params).
 */
function validateOnFirstCall(compile: () => ValidateFunction) {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown, context?: Parameters<ValidateFunction>[1]): boolean => {
    compiled ??= compile();
    const valid = compiled(data, context);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = null as ValidateFunction['errors'];
  validate.schemaEnv = true;
  return validate;
}

/** A response serializer (Fastify's own fast-json-stringify) compiled on its first use. */
function serializeOnFirstCall(schema: SerializerSchema) {
  let compiled: ((data: unknown) => string) | undefined;
  return (data: unknown) => (compiled ??= fastJsonStringify(schema))(data);
}

/**
 * Bodies are validated as sent (a number is not a string), so wrong types are a 400.
 * Query strings and path parameters arrive as text and are coerced to the schema's types.
 */
export const validationPlugin = fp(
  async (app) => {
    const bodyAjv = createBodyValidator();
    const textAjv = addFormats(new Ajv({ ...common, coerceTypes: true }));
    // JSON only: a text/plain body is a 415, not a string that fails validation.
    app.removeContentTypeParser('text/plain');
    // Text must be valid Unicode to round-trip: invalid UTF-8 bytes (which Node would turn into
    // U+FFFD) and lone surrogates (which the database drivers would mangle) are a 400
    // (docs/decisions/021-unicode-request-text.md). Prototype-poisoning keys stay an error, as in Fastify's parser.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      // A call that takes no body (DELETE, a restore) sent with the JSON content type many HTTP
      // clients set on every request: nothing to parse. A call that takes one still needs it.
      if ((body as Buffer).length === 0 && !request.routeOptions.schema?.body) {
        done(null, undefined);
        return;
      }
      let text: string;
      try {
        text = utf8.decode(body as Buffer);
      } catch {
        done(badRequest('The request body is not valid UTF-8'), undefined);
        return;
      }
      parseJson(request, text, (error, parsed) => {
        if (error) return done(error, undefined);
        const field = illFormedField(parsed);
        if (field !== null) {
          const error = `${field} must be valid Unicode text (it holds an unpaired surrogate)`;
          const answer = { error, code: 'invalid_unicode', field } as const;
          return done(new AppError(400, error, {}, answer.code, answer), undefined);
        }
        done(null, parsed);
      });
    });
    app.setValidatorCompiler(({ schema, httpPart }) =>
      validateOnFirstCall(() =>
        httpPart === 'body' ? bodyAjv.compile(schema) : textAjv.compile(schema),
      ),
    );
    app.setSerializerCompiler(({ schema }) => serializeOnFirstCall(schema as SerializerSchema));
  },
  { name: 'validation' },
);
