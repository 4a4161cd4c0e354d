import { TIME_ZONE_HEADER } from '@tally/contract';
import type { FastifyRequest } from 'fastify';
import { resolveTimeZone } from './calendar.js';

/** The caller's IANA time zone from the x-time-zone header; UTC when absent or unknown. */
export function timeZoneOf(request: FastifyRequest): string {
  const header = request.headers[TIME_ZONE_HEADER];
  return resolveTimeZone(Array.isArray(header) ? header[0] : header);
}
