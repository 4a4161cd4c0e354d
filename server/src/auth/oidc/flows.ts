import { createHash, randomBytes } from 'node:crypto';
import { OIDC_FLOW_MINUTES } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type FlowPurpose = 'login' | 'link' | 'reauthenticate';

/** What the callback needs to finish a flow, kept server-side until it is spent. */
export interface Flow {
  purpose: FlowPurpose;
  userId: number | null;
  sessionId: string | null;
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

const FLOW_MS = OIDC_FLOW_MINUTES * 60_000;
/** 32 random bytes, base64url: the cookie's value. */
const FLOW_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const rowId = (flowId: string) => createHash('sha256').update(flowId).digest('base64url');

/**
 * Stores a flow and answers the random id for the browser's cookie. The row is keyed by the id's
 * hash, so a database reader cannot finish someone's flow from the table alone. Expired flows of
 * anyone are swept here (an indexed range delete), so the table stays as small as the sign-ins
 * of the last few minutes.
 */
export async function startFlow(db: Kysely<Database>, flow: Flow, now: number): Promise<string> {
  const flowId = randomBytes(32).toString('base64url');
  await db.deleteFrom('oidc_flows').where('expires_at', '<', now).execute();
  await db
    .insertInto('oidc_flows')
    .values({
      id: rowId(flowId),
      purpose: flow.purpose,
      user_id: flow.userId,
      session_id: flow.sessionId,
      state: flow.state,
      nonce: flow.nonce,
      code_verifier: flow.codeVerifier,
      return_to: flow.returnTo,
      expires_at: now + FLOW_MS,
    })
    .execute();
  return flowId;
}

/**
 * Spends the flow the cookie names: deleted in the same statement that reads it, so a callback
 * sent twice (or by two processes at once) finishes at most once. Null when the cookie is
 * missing or malformed, the flow unknown, already spent, or older than OIDC_FLOW_MINUTES.
 */
export async function takeFlow(
  db: Kysely<Database>,
  flowId: string | undefined,
  now: number,
): Promise<Flow | null> {
  if (flowId === undefined || !FLOW_ID_PATTERN.test(flowId)) return null;
  const row = await db
    .deleteFrom('oidc_flows')
    .where('id', '=', rowId(flowId))
    .returningAll()
    .executeTakeFirst();
  if (!row || row.expires_at <= now) return null;
  return {
    purpose: row.purpose,
    userId: row.user_id,
    sessionId: row.session_id,
    state: row.state,
    nonce: row.nonce,
    codeVerifier: row.code_verifier,
    returnTo: row.return_to,
  };
}
