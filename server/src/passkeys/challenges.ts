import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.js';
import { cookieName, isSecureRequest } from '../shared/cookies.js';

/**
 * WebAuthn challenges, kept in the database so that any process behind one PostgreSQL database
 * can check an answer another one asked for (docs/decisions/082-passkeys.md).
 *
 * Each is bound to the browser that asked: the row holds the SHA-256 of a random secret in an
 * httpOnly, SameSite=Strict cookie, so an answer captured elsewhere cannot be sent from another
 * browser. A live cookie is kept (its 5 minutes start again), so several tabs of one browser share
 * it and each keeps its own challenge. A challenge is deleted when it comes back, whether the
 * answer then verifies or not, and is refused after CHALLENGE_TTL_MS.
 */

export type ChallengePurpose = 'sign-in' | 'register' | 'reauthenticate';

export const CHALLENGE_TTL_MS = 5 * 60_000;
const COOKIE = 'tally_webauthn';
const COOKIE_PATH = '/api';

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Stores a challenge (the one @simplewebauthn/server put in the options, 32 random bytes) for
 * this browser, setting its cookie when it has none.
 */
export async function storeChallenge(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  challenge: string,
  purpose: ChallengePurpose,
  userId: number | null,
  now: number,
  /** For a registration: the WebAuthn user.id the options named, to keep with the passkey. */
  userHandle: string | null = null,
): Promise<void> {
  const name = cookieName(request, COOKIE);
  const binding = request.cookies[name] ?? randomBytes(32).toString('base64url');
  reply.setCookie(name, binding, {
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecureRequest(request),
    path: COOKIE_PATH,
    maxAge: CHALLENGE_TTL_MS / 1000,
  });
  // Expired challenges of every browser go here, so the table never outgrows five minutes of use.
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<', now).execute();
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge,
      binding_hash: digest(binding),
      purpose,
      user_id: userId,
      user_handle: userHandle,
      expires_at: now + CHALLENGE_TTL_MS,
    })
    .execute();
}

/**
 * Takes the challenge an answer carries, if this browser was given it for this purpose (and
 * account) and it has not expired: found once (with the user handle a registration named), null
 * ever after. The delete is the check, so two requests racing with one answer cannot both pass.
 */
export async function takeChallenge(
  db: Db,
  request: FastifyRequest,
  challenge: string,
  purpose: ChallengePurpose,
  userId: number | null,
  now: number,
): Promise<{ userHandle: string | null } | null> {
  const binding = request.cookies[cookieName(request, COOKIE)];
  if (binding === undefined) return null;
  const taken = await db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('binding_hash', '=', digest(binding))
    .returning(['purpose', 'user_id', 'user_handle', 'expires_at'])
    .executeTakeFirst();
  const valid =
    taken !== undefined &&
    taken.purpose === purpose &&
    taken.user_id === userId &&
    taken.expires_at >= now;
  return valid ? { userHandle: taken.user_handle } : null;
}
