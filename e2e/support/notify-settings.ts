/**
 * Notification channels in the e2e run: the stand-ins for ntfy, Gotify, Pushover and webhooks
 * (support/local-notify-receivers.mjs) and the loopback address where the specs read what they
 * received and give a webhook its signing secret.
 */
import { e2ePort, E2E_PORT } from './ports';

export function notifyAddresses(base = E2E_PORT) {
  const RECEIVERS_PORT = e2ePort('receivers', base);
  const RECEIVERS_CONTROL_PORT = e2ePort('receiversControl', base);
  const RECEIVERS_ORIGIN = `http://127.0.0.1:${RECEIVERS_PORT}`;
  return {
    RECEIVERS_PORT,
    RECEIVERS_ORIGIN,
    RECEIVERS_CONTROL_PORT,
    RECEIVERS_CONTROL_ORIGIN: `http://127.0.0.1:${RECEIVERS_CONTROL_PORT}`,
    PUSHOVER_API_URL: `${RECEIVERS_ORIGIN}/pushover/1/messages.json`,
  };
}
export const { RECEIVERS_ORIGIN, RECEIVERS_CONTROL_ORIGIN } = notifyAddresses();
