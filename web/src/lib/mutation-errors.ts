import { ApiError, errorMessage } from './api-error';
import { showNotice } from './notices';

/** A failed change is logged and shown in a dismissible notice (docs/product.md, Errors). */
export function reportMutationError(error: unknown, operation: string): void {
  console.warn(`${operation} failed`, error);
  if (error instanceof ApiError && error.handled) return;
  showNotice(errorMessage(error, operation), { tone: 'error' });
}
