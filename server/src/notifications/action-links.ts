import { createHmac, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { ServerTexts } from '../shared/languages/index.js';
import type { Clock } from '../shared/clock.js';

/**
 * Signed links that act without signing in (docs/decisions/171-reminder-actions-without-signing-in.md):
 * a reminder's Complete and Snooze, and the digest's unsubscribe. Each is a JWT (HS256, through
 * jose) with its own audience, so a token made for one purpose is refused by every other, and
 * a key derived from JWT_SECRET for these links alone. A reminder's links share one token id,
 * recorded when one is used, so the first one used is the only one that works.
 */

const REMINDER_ACTIONS = ['complete', 'snooze-10m', 'snooze-1h', 'tomorrow'] as const;
export type ReminderAction = (typeof REMINDER_ACTIONS)[number];

/** How much later a snooze brings the reminder back. */
export const SNOOZE_MS: Record<Exclude<ReminderAction, 'complete'>, number> = {
  'snooze-10m': 10 * 60_000,
  'snooze-1h': 60 * 60_000,
  tomorrow: 24 * 60 * 60_000,
};

const ACTION_AUDIENCE = 'tally:reminder-action';
const UNSUBSCRIBE_AUDIENCE = 'tally:digest-unsubscribe';
/** A reminder's links work for a week: long enough for a mail read late, not forever. */
const ACTION_LIFETIME_S = 7 * 24 * 60 * 60;
/** Mail clients offer unsubscribe on old digests too. */
const UNSUBSCRIBE_LIFETIME_S = 60 * 24 * 60 * 60;

export interface ActionClaims {
  userId: number;
  todoId: number;
  action: ReminderAction;
  /** Shared by the links of one reminder: the use-once record's key. */
  tokenId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const isAction = (value: unknown): value is ReminderAction =>
  typeof value === 'string' && (REMINDER_ACTIONS as readonly string[]).includes(value);

export function createActionLinks(options: { jwtSecret: string; publicUrl: string; clock: Clock }) {
  const key = createHmac('sha256', options.jwtSecret).update('tally action links').digest();
  const seconds = () => Math.floor(options.clock() / 1000);

  async function sign(claims: Record<string, unknown>, audience: string, lifetime: number) {
    const now = seconds();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + lifetime)
      .sign(key);
  }

  async function verify(token: string, audience: string) {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        audience,
        currentDate: new Date(options.clock()),
      });
      return payload;
    } catch {
      return null;
    }
  }

  return {
    /** The links of one reminder: one per action, all sharing one use, labelled in `texts`. */
    async reminderLinks(userId: number, todoId: number, texts: ServerTexts) {
      const jti = randomUUID();
      return Promise.all(
        REMINDER_ACTIONS.map(async (action) => {
          const token = await sign(
            { uid: userId, todo: todoId, act: action, jti },
            ACTION_AUDIENCE,
            ACTION_LIFETIME_S,
          );
          return {
            action,
            label: texts.actions[action],
            url: `${options.publicUrl}/api/notifications/actions?token=${token}`,
          };
        }),
      );
    },

    async readAction(token: string): Promise<ActionClaims | null> {
      const payload = await verify(token, ACTION_AUDIENCE);
      if (
        !payload ||
        typeof payload.uid !== 'number' ||
        typeof payload.todo !== 'number' ||
        !isAction(payload.act) ||
        typeof payload.jti !== 'string' ||
        typeof payload.exp !== 'number'
      ) {
        return null;
      }
      return {
        userId: payload.uid,
        todoId: payload.todo,
        action: payload.act,
        tokenId: payload.jti,
        expiresAt: payload.exp * 1000,
      };
    },

    async unsubscribeUrl(userId: number) {
      const token = await sign({ uid: userId }, UNSUBSCRIBE_AUDIENCE, UNSUBSCRIBE_LIFETIME_S);
      return `${options.publicUrl}/api/notifications/unsubscribe?token=${token}`;
    },

    async readUnsubscribe(token: string): Promise<number | null> {
      const payload = await verify(token, UNSUBSCRIBE_AUDIENCE);
      return payload && typeof payload.uid === 'number' ? payload.uid : null;
    },
  };
}

export type ActionLinks = ReturnType<typeof createActionLinks>;
