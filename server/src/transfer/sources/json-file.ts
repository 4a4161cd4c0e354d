import { badRequest } from '../../shared/errors.js';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An ISO 8601 instant as epoch ms; null when absent, not one, or before the year 1000. */
export function instant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  // Go writes "no time" as year 1 (0001-01-01T00:00:00Z); nothing real is dated before 1000.
  return Number.isFinite(ms) && ms > Date.UTC(1000, 0, 1) ? ms : null;
}

/** Nesting a file of these formats never needs; deeper is a hostile or a wrong file. */
const NESTING_MAX = 64;

/**
 * A JSON file's document, or a 400 saying why not. The nesting is counted first (outside
 * strings), so a file of a million brackets is refused before the parser builds it.
 */
export function parseJson(text: string, what: string): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > NESTING_MAX) {
        throw badRequest(`The file is nested deeper than ${NESTING_MAX} levels: it is not ${what}`);
      }
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    throw badRequest(`The file is not valid JSON${detail}`);
  }
}
