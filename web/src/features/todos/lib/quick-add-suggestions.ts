import { t } from '@lingui/core/macro';

/**
 * What quick add offers while a `#group` or an `@tag` is typed: the user's groups or tags that
 * start with the letters typed after the sign (any case), and for a group name no group has,
 * "Create group {name}". Accepting one puts the whole name in the text, followed by a space. A
 * name typed whole offers nothing, so Enter then saves the todo.
 */

export interface Suggestion {
  /** The option's text: "Home", "@bills", "Create group Garden". */
  label: string;
  /** What replaces the typed word: "#Home ", "@bills ". */
  insert: string;
  /** A group name to create first ("Create group …"). */
  create?: string;
}

export interface SuggestionsAt {
  /** Where the typed word (with its sign) starts and ends in the text. */
  start: number;
  end: number;
  options: Suggestion[];
}

const SHOWN_MAX = 8;

/** The suggestions for the word that ends at `caret`, or null when it is no `#` or `@` word. */
export function suggestionsAt(
  text: string,
  caret: number,
  groups: readonly { name: string }[],
  tags: readonly string[],
): SuggestionsAt | null {
  const word = /(?:^|\s)([#@])([^\s#@]*)$/.exec(text.slice(0, caret));
  if (!word) return null;
  const [, sign, typed = ''] = word;
  const start = caret - typed.length - 1;
  const after = /^[^\s]*/.exec(text.slice(caret))?.[0] ?? '';
  const end = caret + after.length;
  const prefix = typed.toLowerCase();
  const whole = (name: string) => name.toLowerCase() === prefix;
  if (sign === '@') {
    if (tags.some(whole)) return null;
    const options = tags
      .filter((tag) => tag.toLowerCase().startsWith(prefix))
      .slice(0, SHOWN_MAX)
      .map((tag) => ({ label: `@${tag}`, insert: `@${tag} ` }));
    return options.length > 0 ? { start, end, options } : null;
  }
  if (groups.some((group) => whole(group.name))) return null;
  const options: Suggestion[] = groups
    .filter((group) => group.name.toLowerCase().startsWith(prefix))
    .slice(0, SHOWN_MAX)
    .map((group) => ({ label: group.name, insert: `#${group.name} ` }));
  if (typed !== '') {
    options.push({ label: t`Create group ${typed}`, insert: `#${typed} `, create: typed });
  }
  return options.length > 0 ? { start, end, options } : null;
}
