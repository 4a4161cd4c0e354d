import { TZDate } from '@date-fns/tz';
import { parseDate, pad } from '@tally/contract/dates';

/**
 * Calendar days in the caller's time zone, computed here rather than with a database's date
 * functions so SQLite and PostgreSQL bucket identically (docs/product.md, Statistics).
 * Dates are 'YYYY-MM-DD' strings; instants are epoch milliseconds.
 */

const validZones = new Map<string, string>();
const MAX_CACHED_ZONES = 1000;

/** The IANA zone named by the client, canonicalised; UTC when absent or unknown. */
export function resolveTimeZone(requested: string | undefined): string {
  if (!requested || requested.length > 64) return 'UTC';
  const cached = validZones.get(requested);
  if (cached) return cached;
  try {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: requested }).resolvedOptions()
      .timeZone;
    if (validZones.size < MAX_CACHED_ZONES) validZones.set(requested, zone);
    return zone;
  } catch {
    return 'UTC';
  }
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const dayStarts = new Map<string, number>();
const MAX_CACHED_DAY_STARTS = 20_000;

/**
 * The instant the given day starts in the zone (midnight, or the first instant after a gap).
 * Remembered: a day's start never changes within a process, and computing it through TZDate
 * was half the cost of a 30-day answer (figures in docs/performance.md).
 */
export function startOfDay(date: string, zone: string): number {
  const key = `${zone} ${date}`;
  const cached = dayStarts.get(key);
  if (cached !== undefined) return cached;
  const parsed = parseDate(date);
  if (!parsed) throw new RangeError(`Not a date: ${date}`);
  const start = new TZDate(parsed.year, parsed.month - 1, parsed.day, zone).getTime();
  if (dayStarts.size >= MAX_CACHED_DAY_STARTS) dayStarts.clear();
  dayStarts.set(key, start);
  return start;
}

/**
 * The instant the day after the given one starts in the zone: the end of that day. Computed from
 * the date's parts, so the day after 9999-12-31 (which has no YYYY-MM-DD) works too.
 */
export function endOfDay(date: string, zone: string): number {
  const parsed = parseDate(date);
  if (!parsed) throw new RangeError(`Not a date: ${date}`);
  return new TZDate(parsed.year, parsed.month - 1, parsed.day + 1, zone).getTime();
}

/** Per zone, the latest day asked for and the instants it spans (from inclusive, to exclusive). */
const latestDays = new Map<string, { date: string; from: number; to: number }>();

/**
 * The calendar date of an instant in the zone. Most calls ask about now: the day found for the
 * latest instant is remembered with its bounds, so a TZDate (costly: docs/performance.md) is made
 * once per zone and day instead of on every Today view or statistics answer
 * (docs/decisions/049-per-request-costs.md).
 */
export function dateInZone(instant: number, zone: string): string {
  const latest = latestDays.get(zone);
  if (latest && instant >= latest.from && instant < latest.to) return latest.date;
  const local = new TZDate(instant, zone);
  const date = `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
  // Only a later day replaces the remembered one, so looking at the past does not evict today.
  if ((!latest || instant >= latest.to) && parseDate(date)) {
    if (!latest && latestDays.size >= MAX_CACHED_ZONES) latestDays.clear();
    latestDays.set(zone, { date, from: startOfDay(date, zone), to: endOfDay(date, zone) });
  }
  return date;
}

/** The calendar date and clock time (HH:mm) of an instant in the zone. */
export function localDateTime(instant: number, zone: string): { date: string; time: string } {
  const local = new TZDate(instant, zone);
  return {
    date: `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`,
    time: `${pad(local.getHours())}:${pad(local.getMinutes())}`,
  };
}
