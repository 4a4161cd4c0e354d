import { NOT_BLANK } from '@tally/contract/constants';
import { cleanDescription } from '@tally/contract/todo-text';
import { fieldErrorOf } from '#web/lib/api-client';

/** A title must hold a non-blank character: the API's own pattern (contract/src/constants.ts). */
export const TITLE_PATTERN = NOT_BLANK;

/** A description as the server keeps it: trimmed, and null when blank (contract's todo-text). */
export const descriptionOrNull = (description: string): string | null =>
  cleanDescription(description);

/**
 * The fields whose refusal (a server 400 naming them) the todo forms show beside the field
 * rather than in a notice: the mutations' meta `fieldErrors` (lib/query-client.ts).
 */
export const TODO_FORM_FIELDS = ['title', 'description', 'dueDate', 'dueTime'] as const;
type TodoFormField = (typeof TODO_FORM_FIELDS)[number];

/** The sentence beside each todo form field that the server refused (none: an empty object). */
export function todoFieldErrors(error: unknown): Partial<Record<TodoFormField, string>> {
  const errors: Partial<Record<TodoFormField, string>> = {};
  for (const field of TODO_FORM_FIELDS) {
    const sentence = fieldErrorOf(error, field);
    if (sentence) errors[field] = sentence;
  }
  return errors;
}
