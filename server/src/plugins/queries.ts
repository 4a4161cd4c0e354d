import { preparedQuery, type Placeholders } from '../db/prepared.js';

/**
 * The queries the plugins run on every request they authenticate, prepared because they run on
 * every request (docs/decisions/042-prepared-queries.md); the plugins call them like functions.
 */

/**
 * The lookup of every authenticated request (docs/decisions/042-prepared-queries.md and
 * 065-session-lookup-by-primary-key.md): whether the token's session is still open. One
 * primary-key read, so a session that ends (logout, reuse detection, "end session", password
 * change) takes its access tokens with it. The account itself is not read: deleting it deletes
 * its sessions (in the same transaction, and by the foreign key's cascade), and a username never
 * changes, so an open session of this id vouches for the token's id and name.
 */
export const liveSession = preparedQuery(
  (db, p: Placeholders<{ sessionId: string; userId: number; now: number }>) =>
    db
      .selectFrom('sessions')
      .select([
        'sessions.user_id',
        'sessions.reauthenticated_at',
        'sessions.password_change_required',
      ])
      .where('sessions.id', '=', p('sessionId'))
      .where('sessions.user_id', '=', p('userId'))
      .where('sessions.ended_at', 'is', null)
      .where('sessions.expires_at', '>', p('now')),
);

/** The token's row and its account, looked up by hash on every request made with one. */
export const tokenByHash = preparedQuery((db, p: Placeholders<{ hash: string }>) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id',
      'api_tokens.scope',
      'api_tokens.expires_at',
      'api_tokens.last_used_at',
      'api_tokens.filter_id',
      'users.id as user_id',
      'users.username',
      'users.username_lower',
      'users.email',
      'users.email_lower',
    ])
    .where('api_tokens.token_hash', '=', p('hash'))
    // A disabled account's tokens (and so its CalDAV app passwords) stop working.
    .where('users.disabled_at', 'is', null),
);

/**
 * Notes the use at most once a minute per token: the condition makes the update a no-op when
 * another request (or process) noted it in the last minute, so requests do not each write.
 */
export const noteUse = preparedQuery(
  (db, p: Placeholders<{ id: number; now: number; minuteAgo: number }>) =>
    db
      .updateTable('api_tokens')
      .set({ last_used_at: p('now') })
      .where('id', '=', p('id'))
      .where((eb) =>
        eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', p('minuteAgo'))]),
      ),
);
