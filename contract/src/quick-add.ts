/**
 * Quick add's tags and priority (docs/product.md, Todos screen): one pure rule for every client,
 * with no imports, so the browser takes it through the light entry `@tally/contract/quick-add`.
 *
 * - `@name` adds the tag `name` (1-30 characters without spaces or commas; `#Group` stays the
 *   group). An e-mail address (`me@example.com`) is no tag: `@` must start a word.
 * - `p1`, `p2`, `p3` are Todoist's priorities, p1 the highest: 3 (high), 2, 1 (low).
 * - `!`, `!!`, `!!!` standing alone: 1 (low), 2 (medium), 3 (high).
 *
 * - `#Name` puts it in the group of that name (any case; the longest name that fits wins).
 *
 * Only the first priority written counts. A dismissed chip's key leaves its words in the title.
 */

export interface QuickTag {
  name: string;
  /** Where it is in the text: [start, end). */
  range: [number, number];
  /** The key that dismisses it: `tag:` and the name in lower case. */
  key: string;
}

export interface QuickPriority {
  priority: 1 | 2 | 3;
  range: [number, number];
  words: string;
  key: string;
}

const TAG = /(?<!\S)@([^\s,@]{1,30})(?!\S)/g;
const PRIORITY = /(?<!\S)(?:[pP]([1-3])|(!{1,3}))(?!\S)/g;
const TODOIST: Record<string, 1 | 2 | 3> = { '1': 3, '2': 2, '3': 1 };

export function readQuickTags(text: string, dismissed: ReadonlySet<string>): QuickTag[] {
  const tags: QuickTag[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(TAG)) {
    const name = match[1] ?? '';
    const key = `tag:${name.toLowerCase()}`;
    if (dismissed.has(key) || seen.has(key)) continue;
    seen.add(key);
    tags.push({ name, range: [match.index, match.index + match[0].length], key });
  }
  return tags;
}

export function readQuickPriority(
  text: string,
  dismissed: ReadonlySet<string>,
): QuickPriority | null {
  for (const match of text.matchAll(PRIORITY)) {
    const words = match[0];
    const key = `priority:${words.toLowerCase()}`;
    if (dismissed.has(key)) continue;
    const priority = match[1] ? TODOIST[match[1]] : (words.length as 1 | 2 | 3);
    if (priority === undefined) continue;
    return { priority, range: [match.index, match.index + words.length], words, key };
  }
  return null;
}

export interface QuickGroup<G extends { name: string }> {
  group: G;
  range: [number, number];
  words: string;
}

/** The first `#Name` naming one of `groups`, followed by a space, punctuation or the end. */
export function readQuickGroup<G extends { name: string }>(
  text: string,
  groups: readonly G[],
  dismissed: ReadonlySet<string>,
): QuickGroup<G> | null {
  const byLength = [...groups].sort((a, b) => b.name.length - a.name.length);
  for (const match of text.matchAll(/(?:^|\s)#/g)) {
    const start = match.index + match[0].length - 1;
    for (const group of byLength) {
      const end = start + 1 + group.name.length;
      const typed = text.slice(start + 1, end);
      if (typed.toLowerCase() !== group.name.toLowerCase()) continue;
      if (end < text.length && !/[\s.,;:!?)]/.test(text[end] ?? '')) continue;
      const words = text.slice(start, end);
      if (dismissed.has(`group:${words.trim().toLowerCase()}`)) continue;
      return { group, range: [start, end], words };
    }
  }
  return null;
}

/**
 * The words for "the nth weekday of the month" in repeat rules ("every 2nd tue", "every last
 * fri"), read by quick add and by the Todoist import alike: 1-5, or -1 for the last.
 */
export const ORDINAL_WORDS: Readonly<Record<string, 1 | 2 | 3 | 4 | 5 | -1>> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  last: -1,
};
