import { NOT_BLANK } from '@tally/contract/constants';
import { cleanDescription } from '@tally/contract/todo-text';

/** A title must hold a non-blank character: the API's own pattern (contract/src/constants.ts). */
export const TITLE_PATTERN = NOT_BLANK;
export const TITLE_HINT = 'Enter a title';

/** A description as the server keeps it: trimmed, and null when blank (contract's todo-text). */
export const descriptionOrNull = (description: string): string | null =>
  cleanDescription(description);
