import type { Element } from '@xmldom/xmldom';
import type ICAL from 'ical.js';
import { badRequest } from '../shared/errors.js';
import { OCCURRENCES_CHECKED_MAX } from './limits.js';
import { ical } from './vtodo.js';
import { childElements, firstChild, isElement, NS, textOf } from './xml.js';

/**
 * A calendar-query's filter (RFC 4791, 9.7): whether a calendar object matches its comp-filters,
 * prop-filters, text-matches and time-ranges, a repeating todo by any of its occurrences.
 */

/** The basic-format UTC time of a time-range attribute, as epoch ms. */
function rangeTime(value: string | null, fallback: number): number {
  if (!value) return fallback;
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) throw badRequest('time-range: start and end must be UTC times like 20260310T000000Z');
  const [, y, mo, da, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y ?? 0, (mo ?? 1) - 1, da ?? 1, h ?? 0, mi ?? 0, s ?? 0);
}

/**
 * A property's values, or none when they cannot be read as their type: an object stored before
 * PUT refused such values (caldav/vtodo.ts, checkComponents) then fails the filter, instead of
 * failing every query of its calendar.
 */
function valuesOf(property: ICAL.Property | null): unknown[] {
  try {
    return property?.getValues() ?? [];
  } catch {
    return [];
  }
}

const timeOf = (component: ICAL.Component, name: string): number | null => {
  const [value] = valuesOf(component.getFirstProperty(name));
  return value instanceof ical().Time ? value.toUnixTime() * 1000 : null;
};

/** RFC 4791, 9.9: whether a VTODO of these DTSTART and DUE falls in a time range. */
function datesInRange(dtstart: number | null, due: number | null, start: number, end: number) {
  if (dtstart !== null && due !== null) {
    return (start <= dtstart || start < due) && (end > dtstart || end >= due);
  }
  if (dtstart !== null) return start <= dtstart && end > dtstart;
  if (due !== null) return start < due && end >= due;
  return null;
}

const DAY_MS = 86_400_000;
/** The length of a rule's FREQ, for the frequencies whose occurrences repeat every period. */
const PERIOD_MS: Record<string, number> = {
  SECONDLY: 1000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: DAY_MS,
  WEEKLY: 7 * DAY_MS,
};
/** Months of a rule's FREQ counted in months; a period's ms only estimates how many fit. */
const PERIOD_MONTHS: Record<string, number> = { MONTHLY: 1, YEARLY: 12 };
const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * Where a repeating todo's occurrences can be expanded from to reach `before` (epoch ms): its
 * first date moved on by whole periods of its rule, to one before it, so a daily todo years
 * before the range costs no more to test than one starting at it. Only where the moved date is
 * an occurrence of the rule: no COUNT (it counts from the first date), no BY part but the date's
 * own weekday, and for a monthly or yearly rule a day of the month every month has. Otherwise the
 * first date, and the expansion walks from it up to OCCURRENCES_CHECKED_MAX steps.
 */
function startNear(component: ICAL.Component, base: ICAL.Time, before: number): ICAL.Time {
  const [rule] = valuesOf(component.getFirstProperty('rrule'));
  if (!(rule instanceof ical().Recur) || rule.count || !rule.freq) return base;
  const parts: [string, unknown][] = Object.entries(rule.parts ?? {});
  const ownWeekday = WEEKDAY_CODES[base.dayOfWeek() - 1];
  const onItsOwnDay = parts.every(
    ([part, values]) =>
      part === 'BYDAY' && Array.isArray(values) && values.some((day) => day === ownWeekday),
  );
  const interval = rule.interval || 1;
  const months = PERIOD_MONTHS[rule.freq];
  if (!onItsOwnDay) return base;
  if (months !== undefined) {
    if (parts.length > 0 || base.day > 28) return base;
    // Whole periods of months on the calendar, to the month before `before`'s (a zone's offset
    // cannot carry the moved date past it).
    const from = base.year * 12 + base.month - 1;
    const until = new Date(before).getUTCFullYear() * 12 + new Date(before).getUTCMonth() - 1;
    const steps = Math.floor((until - from) / (interval * months));
    if (!(steps > 0)) return base;
    const moved = base.clone();
    const month = from + steps * interval * months;
    moved.year = Math.floor(month / 12);
    moved.month = (month % 12) + 1;
    return moved;
  }
  const unitMs = PERIOD_MS[rule.freq];
  if (unitMs === undefined) return base;
  // One period less than fits: a zone's daylight saving shift does not carry it past `before`.
  const periods = Math.floor((before - base.toUnixTime() * 1000) / (unitMs * interval)) - 1;
  if (periods <= 0) return base;
  const moved = base.clone();
  // Days in the date's own zone (its wall-clock time stays), shorter periods in seconds.
  if (unitMs >= DAY_MS) moved.adjust((periods * interval * unitMs) / DAY_MS, 0, 0, 0);
  else moved.adjust(0, 0, 0, (periods * interval * unitMs) / 1000);
  return moved;
}

/**
 * RFC 4791, 9.9: whether a VTODO falls in a time range (without DURATION, which Tally lacks),
 * a repeating one by any of its occurrences: each moves DTSTART and DUE together, as a repeat's
 * advance does, from the first of them (DTSTART, else DUE), which the rule starts from.
 */
function todoInRange(component: ICAL.Component, start: number, end: number): boolean {
  const dtstart = timeOf(component, 'dtstart');
  const due = timeOf(component, 'due');
  const first = datesInRange(dtstart, due, start, end);
  if (first === null) {
    const completed = timeOf(component, 'completed');
    const created = timeOf(component, 'created');
    if (completed !== null) return start <= completed && end >= (created ?? completed);
    return true;
  }
  if (first) return true;
  const repeats = component.hasProperty('rrule') || component.hasProperty('rdate');
  const [base] = valuesOf(component.getFirstProperty(dtstart === null ? 'due' : 'dtstart'));
  if (!repeats || !(base instanceof ical().Time)) return false;
  const baseAt = base.toUnixTime() * 1000;
  const earliest = Math.min(dtstart ?? Infinity, due ?? Infinity);
  // An occurrence reaches the range when its first date is no earlier than this.
  const reaching = start - (Math.max(dtstart ?? -Infinity, due ?? -Infinity) - earliest);
  try {
    const occurrences = new (ical().RecurExpansion)({
      component,
      dtstart: startNear(component, base, reaching),
    });
    for (let step = 0; step < OCCURRENCES_CHECKED_MAX; step += 1) {
      const next = occurrences.next();
      if (!next) return false;
      const shift = next.toUnixTime() * 1000 - baseAt;
      // Occurrences come in order: once one starts after the range, none later is in it.
      if (earliest + shift > end) return false;
      const moved = (at: number | null) => (at === null ? null : at + shift);
      if (datesInRange(moved(dtstart), moved(due), start, end)) return true;
    }
  } catch {
    // A rule ical.js cannot expand (stored before PUT checked it): its first dates only.
  }
  return false;
}

function propMatches(filter: Element, component: ICAL.Component): boolean {
  const properties = component.getAllProperties((filter.getAttribute('name') ?? '').toLowerCase());
  if (firstChild(filter, NS.caldav, 'is-not-defined')) return properties.length === 0;
  if (properties.length === 0) return false;
  return properties.some((property) =>
    childElements(filter).every((test) => {
      if (isElement(test, NS.caldav, 'text-match')) {
        const wanted = textOf(test).toLowerCase();
        const hit = valuesOf(property).some((value) =>
          String(value).toLowerCase().includes(wanted),
        );
        return test.getAttribute('negate-condition') === 'yes' ? !hit : hit;
      }
      if (isElement(test, NS.caldav, 'time-range')) {
        const [value] = valuesOf(property);
        if (!(value instanceof ical().Time)) return false;
        const at = value.toUnixTime() * 1000;
        return (
          at >= rangeTime(test.getAttribute('start'), -Infinity) &&
          at < rangeTime(test.getAttribute('end'), Infinity)
        );
      }
      return true;
    }),
  );
}

/** A comp-filter against the components of that name among `components`. */
export function compMatches(filter: Element, components: ICAL.Component[]): boolean {
  const name = (filter.getAttribute('name') ?? '').toLowerCase();
  const candidates = components.filter((component) => component.name === name);
  if (firstChild(filter, NS.caldav, 'is-not-defined')) return candidates.length === 0;
  return candidates.some((component) =>
    childElements(filter).every((test) => {
      if (isElement(test, NS.caldav, 'time-range')) {
        return todoInRange(
          component,
          rangeTime(test.getAttribute('start'), -Infinity),
          rangeTime(test.getAttribute('end'), Infinity),
        );
      }
      if (isElement(test, NS.caldav, 'comp-filter')) {
        return compMatches(test, component.getAllSubcomponents());
      }
      if (isElement(test, NS.caldav, 'prop-filter')) return propMatches(test, component);
      return true;
    }),
  );
}
