import type { WebhookPayload } from '@tally/contract';
import { directed, type ServerTexts } from '../shared/languages/index.js';
import type { Mail } from '../shared/mailer.js';

/**
 * A reminder as an e-mail (the `email` channel): the same words as the phone channels, as plain
 * text and as HTML, with the todo's actions as links when the reminder has them.
 */

export interface ActionLink {
  label: string;
  url: string;
}

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function reminderMail(
  texts: ServerTexts,
  to: string,
  payload: WebhookPayload,
  text: { title: string; message: string },
  actions: readonly ActionLink[],
): Mail {
  const lines = actions.map((action) => `${action.label}: ${action.url}`);
  const buttons = actions
    .map(
      (action) =>
        `<a href="${escapeHtml(action.url)}" style="display:inline-block;margin:0 8px 8px 0;` +
        `padding:8px 14px;border-radius:6px;background:#2563eb;color:#ffffff;` +
        `text-decoration:none">${escapeHtml(action.label)}</a>`,
    )
    .join('');
  const subject = payload.type === 'reminder.fired' ? text.title : `Tally: ${text.message}`;
  return {
    to,
    subject,
    text: [text.message, ...(lines.length > 0 ? ['', ...lines] : [])].join('\n') + '\n',
    html: directed(
      texts,
      `<p>${escapeHtml(text.message)}</p>` + (buttons === '' ? '' : `\n<p>${buttons}</p>`),
    ),
  };
}
