import { isIP } from 'node:net';
import { isPublicAddress } from '../shared/public-address.js';

/**
 * A push endpoint is a URL the browser hands over, so anyone signed in can make the server POST
 * to a URL of their choosing: checked against server-side request forgery when subscribed
 * (https, port 443, no credentials, not an address of a private network) and again at each
 * connection, on the addresses its name resolves to then (a name may point elsewhere later).
 * Loopback http is let through only for the tests' local push service (`allowLoopback`).
 */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

const isLoopbackHost = (hostname: string) =>
  LOOPBACK_NAMES.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);

/** Why the endpoint cannot be used, or null when it can. */
export function endpointProblem(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'endpoint must be a URL';
  }
  if (allowLoopback && url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  if (url.protocol !== 'https:') return 'endpoint must be an https URL';
  if (url.username || url.password) return 'endpoint must not carry credentials';
  if (url.port !== '') return 'endpoint must use the https port (443)';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || (!host.includes('.') && !isIP(host))) {
    return 'endpoint must be on a public host';
  }
  if (isIP(host) && !isPublicAddress(host)) return 'endpoint must be on a public address';
  return null;
}
