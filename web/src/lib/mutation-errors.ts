import { ApiError, errorMessage } from './api-error';
import { showNotice } from './notices';

/** DECISIONS.md item 4: a failed change is logged and shown in a dismissible notice. */
export function reportMutationError(error: unknown, operation: string): void {
  console.warn(`${operation} failed`, error);
  if (error instanceof ApiError && error.handled) return;
  showNotice(errorMessage(error, operation), { tone: 'error' });
}
