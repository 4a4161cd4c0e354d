import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Counters } from '../plugins/counters.js';
import { AppError } from '../shared/errors.js';

const WINDOW_MS = 15 * 60 * 1000;
/** The longest an account waits between attempts once it is under attack. */
const MAX_DELAY_MS = 60_000;
/** A network block (IPv4 /24, IPv6 /48) may try this many times the per-address limit. */
const NETWORK_FACTOR = 3;
/** How long an address the account signed in from counts as the owner's. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

const tooMany = (ttlMs: number, from = 'for this account') => {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new AppError(429, `Too many failed logins ${from} - try again in ${seconds} seconds`, {
    'retry-after': String(seconds),
  });
};

/**
 * The blocks a client's address is counted in. One IPv6 host usually holds a whole /64, so that
 * is its "address"; a /24 (IPv4) or /48 (IPv6) is the network one party can rotate through.
 * Fastify's request.ip is always an address, but anything unparsable counts as itself.
 */
function blocksOf(ip: string): { address: string; network: string } {
  if (!ipaddr.isValid(ip)) return { address: ip, network: ip };
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') {
    const octets = (parsed as ipaddr.IPv4).octets;
    return { address: parsed.toString(), network: `${octets.slice(0, 3).join('.')}.0/24` };
  }
  const parts = (parsed as ipaddr.IPv6).parts.map((part) => part.toString(16));
  return {
    address: `${parts.slice(0, 4).join(':')}::/64`,
    network: `${parts.slice(0, 3).join(':')}::/48`,
  };
}

/**
 * Limits password guessing without letting a stranger lock the owner out. Every attempt is
 * counted before the password is checked (atomically, in Redis when there is one), so parallel
 * guesses cannot all slip under the limit:
 * - per account and address (an IPv6 /64): `attempts` per 15 minutes, then 429 until the
 *   window ends, for everyone;
 * - a browser the account signed in from before (its device cookie, auth/routes.ts), or an
 *   address it signed in from in the last 30 days, stops there: strangers' guesses cannot deny
 *   it (whoever shares that address shares its limit, which they have anyway);
 * - per account and network (IPv4 /24, IPv6 /48): 3 x `attempts` per 15 minutes, so rotating
 *   through one's own block buys little;
 * - per account from all addresses: beyond `attempts`, one attempt per delay that doubles from
 *   1 s to 60 s, so a distributed guesser is slowed to a crawl while the owner's known browser
 *   signs in at once.
 * A correct password, or a reset by e-mail link, clears the account's counters.
 */
const keysOf = (username: string, ip: string) => {
  // A name as typed may be kilobytes long: its hash keeps every key short, whatever is typed.
  const account = createHash('sha256')
    .update(username.toLowerCase())
    .digest('base64url')
    .slice(0, 22);
  const { address, network } = blocksOf(ip);
  return {
    pair: `login:${account}|${address}`,
    network: `login:${account}|${network}`,
    account: `login:${account}`,
    gate: `login-gate:${account}`,
    known: `login-known:${account}|${address}`,
  };
};

/**
 * Forgets an account's failed logins (all addresses together, and this address's and network's
 * own): after a correct password, and after a password reset by e-mail link, so the owner who
 * mistyped or forgot the old password is not kept waiting with the new one.
 */
export async function forgetFailedLogins(
  counters: Counters,
  username: string,
  ip: string,
): Promise<void> {
  const keys = keysOf(username, ip);
  await counters.reset(keys.pair, keys.network, keys.account);
}

/** Whether the account signed in from this address (its IPv6 /64) in the last 30 days. */
export async function isKnownAddress(
  counters: Counters,
  username: string,
  ip: string,
): Promise<boolean> {
  return counters.has(keysOf(username, ip).known);
}

export type LoginLimits = ReturnType<typeof createLoginLimits>;

export function createLoginLimits(counters: Counters, attempts: number) {
  return {
    /**
     * Counts a failed sign-in of this address (an IPv6 /64) and its network (IPv4 /24, IPv6
     * /48), whatever name it tried: 3 x `attempts` per address and 9 x per network in 15
     * minutes, then a 429. Called before `admit`, so a flood of made-up names stops here instead
     * of writing counters for each name.
     */
    async admitAddress(ip: string): Promise<void> {
      const { address, network } = blocksOf(ip);
      const fromAddress = await counters.hit(`login-from:${address}`, WINDOW_MS);
      if (fromAddress.count > attempts * NETWORK_FACTOR) {
        throw tooMany(fromAddress.ttlMs, 'from this address');
      }
      const fromNetwork = await counters.hit(`login-from:${network}`, WINDOW_MS);
      if (fromNetwork.count > attempts * NETWORK_FACTOR ** 2) {
        throw tooMany(fromNetwork.ttlMs, 'from this network');
      }
    },
    /**
     * Counts this attempt; throws a 429 when it is over a limit. `knownDevice`: the browser
     * proved it signed in to this account before, so only its own address's limit applies.
     */
    async admit(username: string, ip: string, knownDevice: boolean): Promise<void> {
      const keys = keysOf(username, ip);
      const pair = await counters.hit(keys.pair, WINDOW_MS);
      if (pair.count > attempts) throw tooMany(pair.ttlMs);
      if (knownDevice || (await counters.has(keys.known))) return;
      const network = await counters.hit(keys.network, WINDOW_MS);
      if (network.count > attempts * NETWORK_FACTOR) throw tooMany(network.ttlMs);
      const account = await counters.hit(keys.account, WINDOW_MS);
      if (account.count <= attempts) return;
      const delayMs = Math.min(
        MAX_DELAY_MS,
        1000 * 2 ** Math.min(16, account.count - attempts - 1),
      );
      const gate = await counters.claim(keys.gate, delayMs);
      if (!gate.claimed) throw tooMany(gate.ttlMs);
    },
    /** Clears the counts, and remembers the address as one the account signs in from. */
    async succeeded(username: string, ip: string): Promise<void> {
      await forgetFailedLogins(counters, username, ip);
      await counters.claim(keysOf(username, ip).known, KNOWN_ADDRESS_MS);
    },
  };
}
