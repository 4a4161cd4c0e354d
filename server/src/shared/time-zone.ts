import { TIME_ZONE_HEADER } from '@tally/contract';
import type { FastifyRequest } from 'fastify';
import { resolveTimeZone } from './calendar.js';

const headerOf = (request: FastifyRequest) => {
  const header = request.headers[TIME_ZONE_HEADER];
  return Array.isArray(header) ? header[0] : header;
};

/** The caller's IANA time zone from the x-time-zone header; UTC when absent or unknown. */
export function timeZoneOf(request: FastifyRequest): string {
  return resolveTimeZone(headerOf(request));
}

/** The zone the caller named, canonicalised; null when it named none or an unknown one. */
export function namedTimeZoneOf(request: FastifyRequest): string | null {
  const named = headerOf(request);
  const zone = resolveTimeZone(named);
  return zone === 'UTC' && named !== 'UTC' && named !== 'Etc/UTC' ? null : zone;
}
