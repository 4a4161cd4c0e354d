/**
 * How a todo's texts are kept, the same on the server (what it stores) and in the browser (what
 * an offline change shows until the server answers): imports nothing (the light entry
 * `@tally/contract/todo-text`). A blank title never gets here: the schemas refuse it.
 */

/** A title as kept: without the spaces around it. */
export const cleanTitle = (title: string): string => title.trim();

/** A description as kept: without the spaces around it; null when nothing else is left. */
export function cleanDescription(description: string | null | undefined): string | null {
  const trimmed = description?.trim();
  return trimmed ? trimmed : null;
}
