import type { ErrorObject } from 'ajv';
import {
  IF_MATCH_PATTERN,
  NOT_BLANK,
  NO_NUL,
  USERNAME_PATTERN,
  type ApiError,
  type ErrorCode,
} from '@tally/contract';

const PATTERN_SENTENCES: Record<string, string> = {
  [NOT_BLANK]: 'must not be empty',
  [NO_NUL]: 'must not contain NUL characters',
  [USERNAME_PATTERN]: "may only contain letters, digits, '.', '_' and '-' (3 to 32 characters)",
  '^\\d{4}-\\d{2}-\\d{2}$': 'must be a date in YYYY-MM-DD format',
  [IF_MATCH_PATTERN]: 'must be * or ETags the API answered, each in quotes (e.g. "3")',
};

function fieldName(error: ErrorObject, part: string): string {
  const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return path ? `${path}.${missing}` : missing;
  }
  return path || part;
}

/** What is wrong with the value: the sentence's end, its stable code and the limit it broke. */
interface Fault {
  sentence: string;
  code: ErrorCode;
  limit?: number;
}

function describe(error: ErrorObject): Fault {
  const params = error.params as Record<string, unknown>;
  const limit = Number(params.limit);
  switch (error.keyword) {
    case 'required':
      return { sentence: 'is required', code: 'required' };
    case 'additionalProperties':
      return {
        sentence: `has an unknown field "${String(params.additionalProperty)}" (accepted fields are listed in /api/docs)`,
        code: 'unknown_field',
      };
    case 'type':
      return {
        sentence: `must be ${params.type === 'integer' ? 'a whole number' : `of type ${String(params.type)}`}`,
        code: 'wrong_type',
      };
    case 'minLength':
      return limit === 1
        ? { sentence: 'must not be empty', code: 'empty' }
        : { sentence: `must be at least ${limit} characters`, code: 'too_short', limit };
    case 'maxLength':
      return { sentence: `must be at most ${limit} characters`, code: 'too_long', limit };
    case 'minimum':
      return { sentence: `must be at least ${limit}`, code: 'too_small', limit };
    case 'maximum':
      return { sentence: `must be at most ${limit}`, code: 'too_large', limit };
    case 'pattern': {
      if (typeof error.data === 'string' && error.data.includes('\u0000')) {
        return { sentence: 'must not contain NUL characters', code: 'invalid_format' };
      }
      const sentence = PATTERN_SENTENCES[String(params.pattern)] ?? 'has an invalid format';
      return { sentence, code: String(params.pattern) === NOT_BLANK ? 'empty' : 'invalid_format' };
    }
    case 'format':
      return params.format === 'email'
        ? { sentence: 'must be a valid e-mail address', code: 'invalid_email' }
        : { sentence: `must be a valid ${String(params.format)}`, code: 'invalid_format' };
    case 'const':
      return { sentence: `must be ${JSON.stringify(params.allowedValue)}`, code: 'not_allowed' };
    case 'enum':
      return { sentence: error.message ?? 'is invalid', code: 'not_allowed' };
    default:
      return { sentence: error.message ?? 'is invalid', code: 'invalid_format' };
  }
}

/**
 * A refusal of the request's values as the API answers it: one sentence naming the field and what
 * is wrong with it ("title must be at most 200 characters"), and beside it the field, a stable
 * code and the limit broken, for a client that words it itself (docs/decisions/178-error-codes.md).
 * For a union (anyOf) it reports the branch the client most likely meant.
 */
export function validationError(errors: ErrorObject[], part: string): ApiError {
  const anyOfConsts = errors.filter((e) => e.keyword === 'const');
  if (anyOfConsts.length > 1) {
    const allowed = anyOfConsts.map((e) =>
      String((e.params as { allowedValue: unknown }).allowedValue),
    );
    const field = fieldName(anyOfConsts[0] as ErrorObject, part);
    return { error: `${field} must be one of ${allowed.join(', ')}`, code: 'not_allowed', field };
  }
  const meaningful =
    errors.find(
      (e) =>
        e.keyword !== 'anyOf' &&
        !(e.keyword === 'type' && (e.params as { type: string }).type === 'null'),
    ) ?? errors[0];
  if (!meaningful) return { error: `${part} is invalid`, code: 'invalid_format', field: part };
  if (meaningful.keyword === 'type' && meaningful.instancePath === '' && part === 'body') {
    return { error: 'The request body must be a JSON object', code: 'wrong_type', field: 'body' };
  }
  const field = fieldName(meaningful, part);
  const { sentence, code, limit } = describe(meaningful);
  return { error: `${field} ${sentence}`, code, field, ...(limit === undefined ? {} : { limit }) };
}

/** The sentence of validationError alone (the CLI's and CalDAV's refusals). */
export const validationMessage = (errors: ErrorObject[], part: string): string =>
  validationError(errors, part).error;
