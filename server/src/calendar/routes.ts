import { calendarApi } from '@tally/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { notFound } from '../shared/errors.js';
import { timeZoneOf } from '../shared/time-zone.js';
import { createFeedCache, feedVersion } from './feed-cache.js';
import { createCalendarService } from './service.js';

export interface CalendarRoutesOptions {
  clock: Clock;
  /** PUBLIC_URL: its host names the events (UID todo-{id}@{host}), the same on every fetch. */
  publicUrl: string;
  /** Feed requests per minute per IP, unknown secrets included. */
  feedRequestsPerMinute?: number;
}

/** Whether the client's copy is current: If-None-Match first, else If-Modified-Since (RFC 9110). */
function notModified(request: FastifyRequest, etag: string, changedAt: number): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag);
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  // HTTP dates have whole seconds.
  return Number.isFinite(since) && Math.floor(changedAt / 1000) * 1000 <= since;
}

/**
 * The calendar feed (docs/product.md, Calendar feed): Settings makes, shows, regenerates and
 * turns off its URL (session only, under /api/account); the public feed itself is authenticated
 * by the secret in its path alone, never by a bearer token.
 */
export const calendarRoutes: FastifyPluginAsync<CalendarRoutesOptions> = async (app, options) => {
  const service = createCalendarService({ db: app.db, clock: options.clock });
  const host = new URL(options.publicUrl).host;
  // A 10,000-todo feed is about 2.5 million characters: a few large feeds, or many small ones.
  const feeds = createFeedCache({ maxChars: 16_000_000 });

  addEndpoint(app, calendarApi.get, async (request) => service.get(request.user.id));

  addEndpoint(app, calendarApi.regenerate, async (request, reply) => {
    const feed = await service.regenerate(request.user.id, timeZoneOf(request));
    request.log.warn(
      { security: 'calendar-feed-regenerated', userId: request.user.id, ip: request.ip },
      'Calendar feed URL made; any earlier one stopped working',
    );
    return reply.code(201).send(feed);
  });

  addEndpoint(app, calendarApi.remove, async (request, reply) => {
    await service.remove(request.user.id);
    return reply.code(204).send();
  });

  addEndpoint(
    app,
    calendarApi.feed,
    async (request, reply) => {
      const { secret } = request.params;
      const owner = await service.ownerOf(secret);
      if (!owner) throw notFound('Calendar feed');
      const filter = owner.filter ? ((await service.feedFilter(owner)) ?? false) : null;
      const calendar = {
        name: owner.filter
          ? `Tally (${owner.username}): ${owner.filter.name}`
          : `Tally (${owner.username})`,
        timeZone: owner.timeZone,
        events: await service.eventsOf(owner.userId, host, filter),
        now: options.clock(),
      };
      const version = feedVersion(calendar);
      const changedAt =
        version === owner.contentHash && owner.contentChangedAt !== null
          ? owner.contentChangedAt
          : await service.noteContent(secret, version);
      const etag = `"${version}"`;
      void reply.headers({
        etag,
        'last-modified': new Date(changedAt).toUTCString(),
        // The URL is the credential: no cache keeps the answer; a client asks with its ETag.
        'cache-control': 'no-store',
      });
      if (notModified(request, etag, changedAt)) return reply.code(304).send();
      const body = await feeds.bodyOf(secret, version, calendar);
      return reply.type('text/calendar; charset=utf-8').send(body);
    },
    {
      config: {
        rateLimit: { max: options.feedRequestsPerMinute ?? 60, timeWindow: '1 minute' },
      },
    },
  );
};
