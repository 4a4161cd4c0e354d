import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';

/**
 * The data directory and everything in it are the owner's alone: the database holds password
 * hashes and tokens' digests, the folder the JWT secret.
 */

/** Creates the folder (and its parents) readable by the owner only; an existing one is kept. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Creates the file empty if it is missing, and makes it readable by the owner only. Appending
 * nothing (`a`) creates a missing file and leaves an existing one as it is, so two processes
 * starting at once cannot trip over each other (no check-then-create, no EEXIST).
 */
export function makePrivateFile(file: string): void {
  writeFileSync(file, '', { mode: 0o600, flag: 'a' });
  chmodSync(file, 0o600);
}
