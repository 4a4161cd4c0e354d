import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fp from 'fastify-plugin';

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

/**
 * Bodies are validated as sent (a number is not a string), so wrong types are a 400.
 * Query strings and path parameters arrive as text and are coerced to the schema's types.
 */
export const validationPlugin = fp(
  async (app) => {
    const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false }));
    const textAjv = addFormats(new Ajv({ ...common, coerceTypes: true }));
    // JSON only: a text/plain body is a 415, not a string that fails validation.
    app.removeContentTypeParser('text/plain');
    app.setValidatorCompiler(({ schema, httpPart }) =>
      httpPart === 'body' ? bodyAjv.compile(schema) : textAjv.compile(schema),
    );
  },
  { name: 'validation' },
);
