/** A title must hold a non-blank character (the server trims it the same way). */
export const TITLE_PATTERN = '.*\\S.*';
export const TITLE_HINT = 'Enter a title';

/** An empty description is sent as null. */
export const descriptionOrNull = (description: string): string | null =>
  description.trim() === '' ? null : description;
