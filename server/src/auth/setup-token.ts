import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { AppError, badRequest } from '../shared/errors.js';

/**
 * SETUP_TOKEN (docs/decisions/127-setup-token.md): while a server that has one holds no account,
 * the first account is made only by whoever presents it, so a fresh server reachable from the
 * internet is not claimed by the first stranger to find it. Once an account exists the token
 * means nothing and sign-up follows REGISTRATION.
 */
export function createSetupGate(db: Kysely<Database>, token: string | null) {
  const expected = token === null ? null : digest(token);

  /** Whether the next account made would be the first of a server with a setup token. */
  async function pending(): Promise<boolean> {
    if (expected === null) return false;
    const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
    return any === undefined;
  }

  /**
   * For a sign-up with the form: true when this is the first account and `given` is the token
   * (it may then be made even while sign-up is closed), false when no token is needed; a 400
   * or 403 naming setupToken otherwise.
   */
  async function admitFirst(given: string | undefined): Promise<boolean> {
    if (expected === null || !(await pending())) return false;
    if (!given) {
      throw badRequest(
        'setupToken is required: the first account on this server needs the setup token its operator set',
      );
    }
    // Compared as digests of equal length, in constant time.
    if (!timingSafeEqual(digest(given), expected)) {
      throw new AppError(403, "setupToken is not this server's setup token");
    }
    return true;
  }

  return { pending, admitFirst };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

export type SetupGate = ReturnType<typeof createSetupGate>;
