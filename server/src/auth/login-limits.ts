import type { Counters } from '../plugins/counters.js';
import { AppError } from '../shared/errors.js';

const WINDOW_MS = 15 * 60 * 1000;
/** The longest an account waits between attempts once it is under attack. */
const MAX_DELAY_MS = 60_000;

const tooMany = (ttlMs: number) => {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new AppError(
    429,
    `Too many failed logins for this account - try again in ${seconds} seconds`,
    { 'retry-after': String(seconds) },
  );
};

/**
 * Limits password guessing without letting a stranger lock the owner out. Every attempt is
 * counted before the password is checked (atomically, in Redis when there is one), so parallel
 * guesses cannot all slip under the limit:
 * - per account and address: `attempts` per 15 minutes, then 429 until the window ends;
 * - per account from all addresses: beyond `attempts`, one attempt per delay that doubles from
 *   1 s to 60 s, so a distributed guesser is slowed to a crawl while the owner waits seconds.
 * A correct password, or a reset by e-mail link, clears the account's counters.
 */
const keysOf = (username: string, ip: string) => {
  const account = username.toLowerCase();
  return {
    pair: `login:${account}|${ip}`,
    account: `login:${account}`,
    gate: `login-gate:${account}`,
  };
};

/**
 * Forgets an account's failed logins (all addresses together, and this address's own): after a
 * correct password, and after a password reset by e-mail link, so the owner who mistyped or
 * forgot the old password is not kept waiting with the new one.
 */
export async function forgetFailedLogins(
  counters: Counters,
  username: string,
  ip: string,
): Promise<void> {
  const keys = keysOf(username, ip);
  await counters.reset(keys.pair, keys.account);
}

export function createLoginLimits(counters: Counters, attempts: number) {
  return {
    /** Counts this attempt; throws a 429 when it is over a limit. */
    async admit(username: string, ip: string): Promise<void> {
      const keys = keysOf(username, ip);
      const pair = await counters.hit(keys.pair, WINDOW_MS);
      if (pair.count > attempts) throw tooMany(pair.ttlMs);
      const account = await counters.hit(keys.account, WINDOW_MS);
      if (account.count <= attempts) return;
      const delayMs = Math.min(
        MAX_DELAY_MS,
        1000 * 2 ** Math.min(16, account.count - attempts - 1),
      );
      const gate = await counters.claim(keys.gate, delayMs);
      if (!gate.claimed) throw tooMany(gate.ttlMs);
    },
    succeeded: (username: string, ip: string) => forgetFailedLogins(counters, username, ip),
  };
}
