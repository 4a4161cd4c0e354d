import { LIMITS } from '@tally/contract';

/**
 * A valid username derived from an e-mail address (its local part, reduced to the allowed
 * characters), made unique by a numeric suffix; `isTaken` checks a candidate.
 */
export async function deriveUsername(
  email: string,
  isTaken: (candidate: string) => Promise<boolean>,
): Promise<string> {
  const local = email.split('@')[0] ?? '';
  let base = local.replace(/[^A-Za-z0-9._-]/g, '').slice(0, LIMITS.usernameMax);
  if (base.length < LIMITS.usernameMin) base = `${base}user`.slice(0, LIMITS.usernameMax);
  if (!(await isTaken(base))) return base;
  for (let n = 2; n < 10_000; n++) {
    const suffix = String(n);
    const candidate = `${base.slice(0, LIMITS.usernameMax - suffix.length)}${suffix}`;
    if (!(await isTaken(candidate))) return candidate;
  }
  throw new Error('no free username');
}
