import { createHash } from 'node:crypto';
import { timeSlicer } from '../shared/time-slices.js';
import { calendarChunks, type FeedCalendar } from './ics.js';

/**
 * The rendered calendar feeds, by feed secret (docs/decisions/070-bounded-calendar-feed.md). A
 * feed's version is a hash of everything its text is made of, read from the database on every
 * request, so a 304 needs no rendering and a body kept here is never served once the data
 * changed, whichever process changed it. Bodies are kept up to `maxChars` in all (the least
 * recently served go first); a feed is written in slices that leave the event loop free.
 */

/** Bumped when the writer (ics.ts) changes what it writes for the same data. */
const FORMAT = 'ics-2';

/** The version of a feed: its ETag. Changes with any event, the name, the zone or the year. */
export function feedVersion(calendar: FeedCalendar): string {
  const year = new Date(calendar.now).getUTCFullYear();
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, year, calendar.name, calendar.timeZone, calendar.events]))
    .digest('base64url');
}

/** The feed's text, written in slices of at most about 10 ms of work each. */
async function renderInSlices(calendar: FeedCalendar): Promise<string> {
  const pause = timeSlicer();
  const parts: string[] = [];
  for (const chunk of calendarChunks(calendar)) {
    parts.push(chunk);
    await pause();
  }
  return parts.join('');
}

export function createFeedCache({ maxChars }: { maxChars: number }) {
  const bodies = new Map<string, { version: string; body: string }>();
  // Requests for a version being written wait for that one writing.
  const writing = new Map<string, Promise<string>>();
  let chars = 0;

  function keep(secret: string, version: string, body: string) {
    const old = bodies.get(secret);
    if (old) {
      bodies.delete(secret);
      chars -= old.body.length;
    }
    if (body.length > maxChars) return;
    bodies.set(secret, { version, body });
    chars += body.length;
    for (const [key, entry] of bodies) {
      if (chars <= maxChars) break;
      bodies.delete(key);
      chars -= entry.body.length;
    }
  }

  /** The feed's text for `version`: kept, being written, or written now. */
  async function bodyOf(secret: string, version: string, calendar: FeedCalendar): Promise<string> {
    const kept = bodies.get(secret);
    if (kept?.version === version) {
      // Most recently served last: the first to go are the ones least recently served.
      bodies.delete(secret);
      bodies.set(secret, kept);
      return kept.body;
    }
    const key = `${secret} ${version}`;
    let pending = writing.get(key);
    if (!pending) {
      pending = renderInSlices(calendar).finally(() => writing.delete(key));
      writing.set(key, pending);
      const body = await pending;
      keep(secret, version, body);
      return body;
    }
    return pending;
  }

  return { bodyOf };
}
