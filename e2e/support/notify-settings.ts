/**
 * Notification channels in the e2e run: the stand-ins for ntfy, Gotify, Pushover and webhooks
 * (support/local-notify-receivers.mjs) and the loopback address where the specs read what they
 * received and give a webhook its signing secret.
 */
export const RECEIVERS_PORT = Number(process.env.E2E_RECEIVERS_PORT ?? 3108);
export const RECEIVERS_ORIGIN = `http://127.0.0.1:${RECEIVERS_PORT}`;
export const RECEIVERS_CONTROL_PORT = Number(process.env.E2E_RECEIVERS_CONTROL_PORT ?? 3109);
export const RECEIVERS_CONTROL_ORIGIN = `http://127.0.0.1:${RECEIVERS_CONTROL_PORT}`;
export const PUSHOVER_API_URL = `${RECEIVERS_ORIGIN}/pushover/1/messages.json`;
