/**
 * `new Date(epochMs).toISOString()` for the timestamps Tally stores (epoch milliseconds), without
 * a Date: V8's toISOString was a large part of mapping rows to todos, and the first page of the
 * list is still measurably cheaper with this (docs/performance.md, "Machinery kept or removed";
 * docs/decisions/049-per-request-costs.md). The calendar part of each UTC day is computed once
 * and remembered; the time of day is plain arithmetic. Exactly toISOString's text for every
 * whole millisecond from 1970 to 9999; anything else goes to toISOString itself.
 */

const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59.999Z: beyond it toISOString writes a six-digit year. */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** 'YYYY-MM-DDT' per day since the epoch; a list spans few days, so the map stays small. */
const dayPrefixes = new Map<number, string>();
const MAX_REMEMBERED_DAYS = 4096;

function dayPrefix(day: number): string {
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (dayPrefixes.size >= MAX_REMEMBERED_DAYS) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  return prefix;
}

export function isoTime(epochMs: number): string {
  if (!(epochMs >= 0 && epochMs <= LAST_FOUR_DIGIT_YEAR_MS) || !Number.isInteger(epochMs)) {
    return new Date(epochMs).toISOString();
  }
  const day = Math.floor(epochMs / DAY_MS);
  let rest = epochMs - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${dayPrefix(day)}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}Z`;
}
