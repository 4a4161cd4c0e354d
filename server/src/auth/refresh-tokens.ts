import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/schema.js';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Stores a new refresh token (in `familyId`, or a new family) and returns the raw token. */
export async function issueRefreshToken(
  db: Db,
  userId: number,
  now: number,
  familyId: string = randomUUID(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('refresh_tokens')
    .values({
      user_id: userId,
      family_id: familyId,
      token_hash: digest(token),
      created_at: now,
      expires_at: now + REFRESH_TOKEN_TTL_MS,
      used_at: null,
      revoked_at: null,
    })
    .execute();
  return token;
}

export type RotationResult =
  { status: 'rotated'; userId: number; familyId: string } | { status: 'reused' | 'invalid' };

/**
 * Marks a refresh token used, exactly once. A token that was already used or revoked means it
 * leaked: the whole family is revoked, so neither the thief nor the user can go on with it.
 */
export async function consumeRefreshToken(
  db: Db,
  token: string,
  now: number,
): Promise<RotationResult> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select(['id', 'user_id', 'family_id', 'expires_at', 'used_at', 'revoked_at'])
    .where('token_hash', '=', digest(token))
    .executeTakeFirst();
  if (!row) return { status: 'invalid' };
  if (row.used_at !== null || row.revoked_at !== null) {
    await revokeFamily(db, row.family_id, now);
    return { status: 'reused' };
  }
  if (row.expires_at <= now) return { status: 'invalid' };
  // The guard in WHERE makes the claim atomic across processes: only one caller wins.
  const claimed = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    await revokeFamily(db, row.family_id, now);
    return { status: 'reused' };
  }
  return { status: 'rotated', userId: row.user_id, familyId: row.family_id };
}

/** Revokes the family the token belongs to (logout); unknown tokens are ignored. */
export async function revokeRefreshToken(db: Db, token: string, now: number): Promise<void> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', digest(token))
    .executeTakeFirst();
  if (row) await revokeFamily(db, row.family_id, now);
}

async function revokeFamily(db: Db, familyId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}
