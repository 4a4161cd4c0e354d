import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id: the enum is a const enum, which verbatimModuleSyntax cannot read.
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id parameters (m=19 MiB, t=2, p=1); the work runs on libuv's thread pool. */
const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password. With no stored hash (unknown user, Google-only account) it still verifies
 * against a dummy hash, so the answer takes as long as for a wrong password.
 */
export async function verifyPassword(
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('tally-dummy-password-for-timing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
