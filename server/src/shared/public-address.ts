import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The address rules of every request to a URL a user chose (Web Push endpoints in
 * reminders/push-endpoint.ts, notification channels in notifications/outbound.ts): only unicast
 * addresses of the public internet, checked on what a name resolves to at connection time.
 */

/** A unicast address of the public internet: not loopback, private, link-local, reserved… */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * dns.lookup that refuses names resolving to any non-public address, for the connections to
 * push services and notification channels (net calls it with `all: true` when it tries several addresses).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    const first = addresses[0];
    if (refused || !first) {
      const reason = new Error(`${hostname} resolves to a non-public address`);
      callback(Object.assign(reason, { code: 'ENOTPUBLIC' }), '', 0);
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
};
