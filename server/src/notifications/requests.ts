import { createHmac } from 'node:crypto';
import type { WebhookPayload } from '@tally/contract';
import type { ServerTexts } from '../shared/languages/index.js';
import type { ActionLink } from './email.js';
import type { OutboundRequest } from './outbound.js';

/**
 * The request each kind of channel takes, as its service documents it:
 * - ntfy: JSON publish, POST to the server's root with topic, title and message
 *   (docs.ntfy.sh/publish/#publish-as-json); a token as `Authorization: Bearer`; a reminder's
 *   Complete and Snooze as `actions` of type http, each a POST to its signed link
 *   (docs.ntfy.sh/publish/#http-action). ntfy shows at most three: Complete, 10 min, 1 hour.
 * - Gotify: POST /message with the app token in `X-Gotify-Key` and JSON title, message, priority
 *   (gotify.net/api-docs).
 * - Pushover: POST /1/messages.json, form fields token, user, title, message
 *   (pushover.net/api).
 * - Webhook: the WebhookPayload as JSON, signed as Standard Webhooks say: HMAC-SHA256 with the
 *   secret's bytes over `id.timestamp.body`, in `webhook-signature` as `v1,<base64>`.
 */

export interface ChannelTarget {
  /** E-mail goes through the mailer, not over HTTP (service.ts). */
  kind: 'ntfy' | 'gotify' | 'pushover' | 'webhook';
  url: string | null;
  topic: string | null;
  user_key: string | null;
  secret: string | null;
}

export interface Message {
  /** The webhook-id: the same on each attempt of one delivery. */
  id: string;
  payload: WebhookPayload;
}

/**
 * The short text a person reads on a phone (or in an e-mail's subject and first line), in the
 * channel owner's language. Other events name their type as the webhook does: it is an API name.
 */
export function humanText(
  payload: WebhookPayload,
  texts: ServerTexts,
): { title: string; message: string } {
  const data = payload.data;
  if ('todoId' in data) {
    return {
      title: texts.reminder.title(data.title),
      message: texts.reminder.due(texts.date(data.dueDate), texts.time(data.dueTime)),
    };
  }
  const what = 'title' in data ? data.title : data.name;
  return { title: 'Tally', message: `${payload.type}: ${what}` };
}

function webhookSignature(secret: string, id: string, timestamp: number, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** ntfy's limit of action buttons per message. */
const NTFY_MAX_ACTIONS = 3;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function requestFor(
  channel: ChannelTarget,
  message: Message,
  now: number,
  pushoverApiUrl: string,
  texts: ServerTexts,
  actions: readonly ActionLink[] = [],
): OutboundRequest {
  const { title, message: text } = humanText(message.payload, texts);
  switch (channel.kind) {
    case 'ntfy':
      return {
        url: `${trimSlash(channel.url ?? '')}/`,
        headers: {
          'content-type': 'application/json',
          ...(channel.secret ? { authorization: `Bearer ${channel.secret}` } : {}),
        },
        body: JSON.stringify({
          topic: channel.topic,
          title,
          message: text,
          tags: ['bell'],
          ...(actions.length === 0
            ? {}
            : {
                actions: actions.slice(0, NTFY_MAX_ACTIONS).map((action) => ({
                  action: 'http',
                  label: action.label,
                  url: action.url,
                  method: 'POST',
                  clear: true,
                })),
              }),
        }),
      };
    case 'gotify':
      return {
        url: `${trimSlash(channel.url ?? '')}/message`,
        headers: { 'content-type': 'application/json', 'x-gotify-key': channel.secret ?? '' },
        body: JSON.stringify({ title, message: text, priority: 5 }),
      };
    case 'pushover':
      return {
        url: pushoverApiUrl,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: channel.secret ?? '',
          user: channel.user_key ?? '',
          title,
          message: text,
        }).toString(),
      };
    case 'webhook': {
      const body = JSON.stringify(message.payload);
      const timestamp = Math.floor(now / 1000);
      return {
        url: channel.url ?? '',
        headers: {
          'content-type': 'application/json',
          'webhook-id': message.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': webhookSignature(channel.secret ?? '', message.id, timestamp, body),
        },
        body,
      };
    }
  }
}
