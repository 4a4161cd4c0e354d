import { randomInt } from 'node:crypto';
import { LIMITS } from '@tally/contract';
import { conflict } from '../shared/errors.js';

/** Base-36 characters after the base name when it is taken: 36^5, about 60 million. */
const SUFFIX_LENGTH = 5;
/** Random suffixes tried after the base name before giving up. */
const SUFFIX_ATTEMPTS = 5;

/** `length` random base-36 characters. */
export const randomSuffix = (length = SUFFIX_LENGTH): string =>
  randomInt(36 ** length)
    .toString(36)
    .padStart(length, '0');

/**
 * A valid username derived from an e-mail address (its local part, reduced to the allowed
 * characters): the base name itself when it is free, otherwise the base name with "-" and a random
 * base-36 suffix, a few tries at most (`isTaken` checks a candidate). Numbering the names (sam2,
 * sam3, ...) took one query per taken name, up to 10,000 for a common name; a random suffix
 * almost never clashes. The unique index still decides a race between two new accounts.
 */
export async function deriveUsername(
  email: string,
  isTaken: (candidate: string) => Promise<boolean>,
  suffix: () => string = randomSuffix,
): Promise<string> {
  const local = email.split('@')[0] ?? '';
  let base = local.replace(/[^A-Za-z0-9._-]/g, '').slice(0, LIMITS.usernameMax);
  if (base.length < LIMITS.usernameMin) base = `${base}user`.slice(0, LIMITS.usernameMax);
  if (!(await isTaken(base))) return base;
  for (let attempt = 0; attempt < SUFFIX_ATTEMPTS; attempt++) {
    const tail = `-${suffix()}`;
    const candidate = `${base.slice(0, LIMITS.usernameMax - tail.length)}${tail}`;
    if (!(await isTaken(candidate))) return candidate;
  }
  throw conflict('Please try signing in with Google again');
}
