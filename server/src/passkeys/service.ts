import type {
  AddPasskeyBody,
  EndOtherAccess,
  Passkey,
  PasskeyAuthenticationOptions,
  PasskeyAuthenticationResponse,
  PasskeyRegistrationOptions,
} from '@tally/contract';
import { PASSKEYS_PER_ACCOUNT_MAX } from '@tally/contract';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { endOtherAccess, type EndedAccess } from '../auth/end-access.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { AppError, badRequest, conflict } from '../shared/errors.js';
import { onFirstUse } from '../shared/on-first-use.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import {
  CHALLENGE_TTL_MS,
  type ChallengePurpose,
  storeChallenge,
  takeChallenge,
} from './challenges.js';
import type { RelyingParty } from './relying-party.js';

export interface PasskeyServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  rp: RelyingParty;
}

/**
 * @simplewebauthn/server, loaded at the first passkey call: at start its ASN.1 schemas,
 * tsyringe and reflect-metadata would take heap that most requests never use
 * (docs/decisions/097-modules-on-first-use.md).
 */
const loadWebAuthn = onFirstUse(async () => {
  const [server, helpers] = await Promise.all([
    import('@simplewebauthn/server'),
    import('@simplewebauthn/server/helpers'),
  ]);
  return { ...server, ...helpers };
});

const STALE_CHALLENGE =
  'response is not valid: the passkey request has expired or was already used - please try again';
const NOT_VERIFIED = 'response could not be verified as a passkey of this site';

/**
 * The key types a passkey may have (COSE ids): Ed25519, P-256 (ES256, what platform
 * authenticators make) and RSA (RS256, Windows Hello). Named here rather than left to the library,
 * whose default asks Node's experimental SubtleCrypto.supports() about post-quantum keys and so
 * prints an ExperimentalWarning on the first passkey.
 */
const ALGORITHMS = [-8, -7, -257];

const iso = (epochMs: number) => new Date(epochMs).toISOString();

type PasskeyRow = {
  id: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
};

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: iso(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
});

const transportsOf = (stored: string | null): string[] | undefined =>
  stored ? stored.split(',') : undefined;

/** Why an assertion was refused: the route decides the status (401 at sign-in, else 400). */
export class PasskeyRefused extends Error {
  constructor(
    message: string,
    /** A counter that did not move forward: a possibly cloned authenticator, for the log. */
    readonly counterWentBack = false,
  ) {
    super(message);
    this.name = 'PasskeyRefused';
  }
}

/**
 * Passkeys of an account and the WebAuthn ceremonies that add them and use them
 * (docs/decisions/082-passkeys.md). The checks themselves are @simplewebauthn/server's: the
 * challenge, the origin, the relying-party id, user presence and verification, the signature and
 * the counter. What is Tally's: challenges bound to the browser and used once (challenges.ts),
 * the passkey's account, and which origins count (relying-party.ts).
 */
export function createPasskeyService({ db, clock, rp }: PasskeyServiceDeps) {
  const rowsOf = (userId: number) =>
    db
      .selectFrom('passkeys')
      .select(['id', 'name', 'created_at', 'last_used_at', 'credential_id', 'transports'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();

  async function list(userId: number): Promise<Passkey[]> {
    return (await rowsOf(userId)).map(toPasskey);
  }

  /**
   * The client data of an answer, if its origin is Tally's: a page of another origin never gets
   * its challenge taken (and an unreadable one is a 400 naming response).
   */
  async function clientDataOf(clientDataJSON: string) {
    const { decodeClientDataJSON } = await loadWebAuthn();
    let clientData;
    try {
      clientData = decodeClientDataJSON(clientDataJSON);
    } catch {
      throw badRequest('response.clientDataJSON is not valid');
    }
    if (typeof clientData.challenge !== 'string' || typeof clientData.origin !== 'string') {
      throw badRequest('response.clientDataJSON is not valid');
    }
    return clientData;
  }

  /** Options to add a passkey (null when the account is gone). */
  async function registrationOptions(
    userId: number,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<PasskeyRegistrationOptions | null> {
    const user = await db
      .selectFrom('users')
      .select(['username'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return null;
    const existing = await db
      .selectFrom('passkeys')
      .select(['credential_id', 'transports', 'user_handle'])
      .where('user_id', '=', userId)
      .execute();
    if (existing.length >= PASSKEYS_PER_ACCOUNT_MAX) {
      throw conflict(
        `An account can have at most ${PASSKEYS_PER_ACCOUNT_MAX} passkeys - remove one to add another`,
      );
    }
    // One random handle per account (kept with its passkeys): it tells the authenticator that
    // these are the same account, and says nothing about it.
    const handle = existing[0]?.user_handle ?? randomBytes(32).toString('base64url');
    const webauthn = await loadWebAuthn();
    const options = await webauthn.generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.username,
      userDisplayName: user.username,
      userID: webauthn.isoBase64URL.toBuffer(handle),
      timeout: CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({
        id: row.credential_id,
        ...(row.transports ? { transports: transportsOf(row.transports) } : {}),
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    await storeChallenge(
      db,
      request,
      reply,
      options.challenge,
      'register',
      userId,
      clock(),
      handle,
    );
    return options;
  }

  /** Adds the passkey an answer to registrationOptions describes. */
  /**
   * Adds the passkey the browser made, ending what the body asks besides (every session but
   * `keep`, the API tokens and feed) in the same transaction.
   */
  async function add(
    userId: number,
    keep: string | null,
    body: AddPasskeyBody,
    request: FastifyRequest,
  ): Promise<{ passkey: Passkey; ended: EndedAccess }> {
    const clientData = await clientDataOf(body.response.response.clientDataJSON);
    const taken = await takeChallenge(
      db,
      request,
      clientData.challenge,
      'register',
      userId,
      clock(),
    );
    if (!taken?.userHandle) throw badRequest(STALE_CHALLENGE);
    if (!rp.acceptsOrigin(clientData.origin)) throw badRequest(NOT_VERIFIED);
    const webauthn = await loadWebAuthn();
    let verification;
    try {
      verification = await webauthn.verifyRegistrationResponse({
        // The contract's schema is the wire form of this type; the library checks every value.
        response: body.response as RegistrationResponseJSON,
        expectedChallenge: clientData.challenge,
        expectedOrigin: clientData.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch (error) {
      request.log.info(
        { error: (error as Error).message },
        'A passkey registration did not verify',
      );
      throw badRequest(NOT_VERIFIED);
    }
    if (!verification.verified) throw badRequest(NOT_VERIFIED);
    const { credential } = verification.registrationInfo;
    const now = clock();
    const userHandle = taken.userHandle;
    try {
      return await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('passkeys')
          .values({
            user_id: userId,
            credential_id: credential.id,
            public_key: webauthn.isoBase64URL.fromBuffer(credential.publicKey),
            counter: credential.counter,
            transports: credential.transports?.length ? credential.transports.join(',') : null,
            user_handle: userHandle,
            name: body.name.trim(),
            created_at: now,
            last_used_at: null,
          })
          .returning(['id', 'name', 'created_at', 'last_used_at'])
          .executeTakeFirstOrThrow();
        const ended = await endOtherAccess(trx, userId, keep, body, now);
        return { passkey: toPasskey(row), ended };
      });
    } catch (error) {
      // Credential ids are unique across accounts: one key never signs in to two of them.
      if (isUniqueViolation(error)) throw conflict('This passkey is already registered');
      throw error;
    }
  }

  async function rename(userId: number, id: number, name: string): Promise<Passkey | null> {
    const row = await db
      .updateTable('passkeys')
      .set({ name: name.trim() })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returning(['id', 'name', 'created_at', 'last_used_at'])
      .executeTakeFirst();
    return row ? toPasskey(row) : null;
  }

  /** Removes a passkey and ends what `choice` asks besides, as add does; null when not found. */
  async function remove(
    userId: number,
    keep: string | null,
    id: number,
    choice: EndOtherAccess,
  ): Promise<EndedAccess | null> {
    return db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('passkeys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return null;
      return endOtherAccess(trx, userId, keep, choice, clock());
    });
  }

  /**
   * Options to use a passkey: any discoverable one for a sign-in, the account's own to prove
   * identity again (409 when it has none).
   */
  async function authenticationOptions(
    purpose: Exclude<ChallengePurpose, 'register'>,
    userId: number | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<PasskeyAuthenticationOptions> {
    let allowCredentials: { id: string; transports?: string[] }[] | undefined;
    if (userId !== null) {
      const rows = await rowsOf(userId);
      if (rows.length === 0) throw conflict('This account has no passkey');
      allowCredentials = rows.map((row) => ({
        id: row.credential_id,
        ...(row.transports ? { transports: transportsOf(row.transports) } : {}),
      }));
    }
    const webauthn = await loadWebAuthn();
    const options = await webauthn.generateAuthenticationOptions({
      rpID: rp.id,
      userVerification: 'required',
      timeout: CHALLENGE_TTL_MS,
      ...(allowCredentials ? { allowCredentials } : {}),
    });
    await storeChallenge(db, request, reply, options.challenge, purpose, userId, clock());
    return options;
  }

  /**
   * Checks an answer to authenticationOptions and notes the passkey's use; answers its account.
   * A stale challenge is a 400 naming response; anything about the passkey is a PasskeyRefused.
   * With `userId` (proving identity again) the passkey must be that account's.
   */
  async function verifyAssertion(
    response: PasskeyAuthenticationResponse,
    purpose: Exclude<ChallengePurpose, 'register'>,
    userId: number | null,
    request: FastifyRequest,
  ): Promise<{ userId: number; passkeyId: number }> {
    const clientData = await clientDataOf(response.response.clientDataJSON);
    if (!(await takeChallenge(db, request, clientData.challenge, purpose, userId, clock()))) {
      throw badRequest(STALE_CHALLENGE);
    }
    if (!rp.acceptsOrigin(clientData.origin)) throw new PasskeyRefused(NOT_VERIFIED);
    const passkey = await db
      .selectFrom('passkeys')
      .select(['id', 'user_id', 'public_key', 'counter', 'transports', 'user_handle'])
      .where('credential_id', '=', response.id)
      .executeTakeFirst();
    if (!passkey) {
      throw new PasskeyRefused('This passkey is not registered here - it may have been removed');
    }
    if (userId !== null && passkey.user_id !== userId) {
      throw new PasskeyRefused('response is not from a passkey of this account');
    }
    // A discoverable credential names its account: it must be the one the passkey was made for.
    const { userHandle } = response.response;
    if (userHandle !== undefined && userHandle !== '' && userHandle !== passkey.user_handle) {
      throw new PasskeyRefused(NOT_VERIFIED);
    }
    const webauthn = await loadWebAuthn();
    let verification;
    try {
      verification = await webauthn.verifyAuthenticationResponse({
        // The contract's schema is the wire form of this type; the library checks every value.
        response: response as AuthenticationResponseJSON,
        expectedChallenge: clientData.challenge,
        expectedOrigin: clientData.origin,
        expectedRPID: rp.id,
        credential: {
          id: response.id,
          publicKey: webauthn.isoBase64URL.toBuffer(passkey.public_key),
          counter: passkey.counter,
          ...(passkey.transports ? { transports: transportsOf(passkey.transports) } : {}),
        },
        requireUserVerification: true,
      });
    } catch (error) {
      const message = (error as Error).message;
      request.log.info({ error: message }, 'A passkey answer did not verify');
      throw new PasskeyRefused(NOT_VERIFIED, /counter/i.test(message));
    }
    if (!verification.verified) throw new PasskeyRefused(NOT_VERIFIED);
    await db
      .updateTable('passkeys')
      .set({ counter: verification.authenticationInfo.newCounter, last_used_at: clock() })
      .where('id', '=', passkey.id)
      .execute();
    return { userId: passkey.user_id, passkeyId: passkey.id };
  }

  /**
   * Proves identity again with one of the account's passkeys (decision 071): the session may
   * make sensitive changes for RECENT_AUTH_MINUTES.
   */
  async function reauthenticate(
    user: { id: number; sessionId: string },
    response: PasskeyAuthenticationResponse,
    request: FastifyRequest,
  ): Promise<void> {
    try {
      await verifyAssertion(response, 'reauthenticate', user.id, request);
    } catch (error) {
      if (error instanceof PasskeyRefused) throw new AppError(400, error.message);
      throw error;
    }
    await db
      .updateTable('sessions')
      .set({ reauthenticated_at: clock() })
      .where('id', '=', user.sessionId)
      .where('user_id', '=', user.id)
      .execute();
  }

  return {
    list,
    registrationOptions,
    add,
    rename,
    remove,
    authenticationOptions,
    verifyAssertion,
    reauthenticate,
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
