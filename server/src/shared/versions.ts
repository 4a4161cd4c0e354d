import { etagOfVersion } from '@tally/contract';
import { sql } from 'kysely';
import { AppError } from './errors.js';

/**
 * The value of `version` in every UPDATE of a todo or group: one more than the row's
 * (migration 0019), so each write from any path makes an earlier ETag stale.
 */
export const nextVersion = sql<number>`version + 1`;

/**
 * Whether a write's If-Match header lets it change a row at `version`
 * (docs/decisions/113-versions-and-if-match.md). No header: any version, as before versions
 * existed. Strong comparison (RFC 9110 13.1.1): `*`, or the version's own ETag among the
 * listed ones; a weak tag never matches.
 */
export function ifMatchAllows(ifMatch: string | undefined, version: number): boolean {
  if (ifMatch === undefined) return true;
  const etag = etagOfVersion(version);
  return ifMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag;
  });
}

/**
 * The 412 of a write that started from another version: the row as it is now, so the client
 * shows what changed instead of overwriting it, and its ETag to send again.
 */
export const changedMeanwhile = (what: string, current: { version: number }) =>
  new AppError(
    412,
    `This ${what} changed since the version you started from`,
    { etag: etagOfVersion(current.version) },
    undefined,
    current,
  );
