import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fp from 'fastify-plugin';
import { badRequest } from '../shared/errors.js';

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
    // (docs/decisions/021). Prototype-poisoning keys stay an error, as in Fastify's parser.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
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
          return done(
            badRequest(`${field} must be valid Unicode text (it holds an unpaired surrogate)`),
            undefined,
          );
        }
        done(null, parsed);
      });
    });
    app.setValidatorCompiler(({ schema, httpPart }) =>
      httpPart === 'body' ? bodyAjv.compile(schema) : textAjv.compile(schema),
    );
  },
  { name: 'validation' },
);
