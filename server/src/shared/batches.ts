/**
 * Rows or ids per statement: 500 rows of a dozen columns stay far below either database's limit
 * on parameters (SQLite 32,766, PostgreSQL 65,535), and one call names at most 1,000 todos.
 */
const BATCH = 500;

/** The items in slices of `size` (1 to `BATCH`), one statement each. */
export function* batches<T>(items: readonly T[], size = BATCH): Generator<T[]> {
  const step = Math.max(1, Math.min(size, BATCH));
  for (let i = 0; i < items.length; i += step) yield items.slice(i, i + step);
}
