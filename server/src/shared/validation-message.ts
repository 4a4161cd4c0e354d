import type { ErrorObject } from 'ajv';
import { IF_MATCH_PATTERN, NOT_BLANK, NO_NUL, USERNAME_PATTERN } from '@tally/contract';

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

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return `has an unknown field "${String(params.additionalProperty)}" (accepted fields are listed in /api/docs)`;
    case 'type':
      return `must be ${params.type === 'integer' ? 'a whole number' : `of type ${String(params.type)}`}`;
    case 'minLength':
      return params.limit === 1
        ? 'must not be empty'
        : `must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'pattern':
      if (typeof error.data === 'string' && error.data.includes('\u0000')) {
        return 'must not contain NUL characters';
      }
      return PATTERN_SENTENCES[String(params.pattern)] ?? 'has an invalid format';
    case 'format':
      return params.format === 'email'
        ? 'must be a valid e-mail address'
        : `must be a valid ${String(params.format)}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * One sentence naming the field and what is wrong with it, e.g. "title must be at most 200
 * characters". For a union (anyOf) it reports the branch the client most likely meant.
 */
export function validationMessage(errors: ErrorObject[], part: string): string {
  const anyOfConsts = errors.filter((e) => e.keyword === 'const');
  if (anyOfConsts.length > 1) {
    const allowed = anyOfConsts.map((e) =>
      String((e.params as { allowedValue: unknown }).allowedValue),
    );
    return `${fieldName(anyOfConsts[0] as ErrorObject, part)} must be one of ${allowed.join(', ')}`;
  }
  const meaningful =
    errors.find(
      (e) =>
        e.keyword !== 'anyOf' &&
        !(e.keyword === 'type' && (e.params as { type: string }).type === 'null'),
    ) ?? errors[0];
  if (!meaningful) return `${part} is invalid`;
  if (meaningful.keyword === 'type' && meaningful.instancePath === '' && part === 'body') {
    return 'The request body must be a JSON object';
  }
  return `${fieldName(meaningful, part)} ${describe(meaningful)}`;
}
