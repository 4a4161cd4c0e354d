import { RegisterBodySchema } from '@tally/contract';
import type { ValidateFunction } from 'ajv';
import { createBodyValidator } from '../plugins/validation.js';

let validate: ValidateFunction | undefined;

/**
 * The e-mail address an identity provider (Google, OpenID Connect) sent, trimmed, if it passes
 * registration's own schema; null otherwise. A provider's claim is whatever its user typed there:
 * "a@x.example\r\nBcc: b@y.example" would add a header to every mail Tally sends, and a list of
 * addresses would receive each mail, past the per-address limits.
 */
export function providerEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim();
  validate ??= createBodyValidator().compile(RegisterBodySchema.properties.email);
  return validate(email) ? email : null;
}
