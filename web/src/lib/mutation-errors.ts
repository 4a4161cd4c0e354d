import { ApiError, errorMessage, operationName, type Operation } from './api-error';
import { showNotice } from './notices';

/** A failed change is logged and shown in a dismissible notice (docs/product.md, Errors). */
export function reportMutationError(error: unknown, operation: Operation): void {
  console.warn(`${operationName(operation)} failed`, error);
  if (error instanceof ApiError && error.handled) return;
  showNotice(errorMessage(error, operation), { tone: 'error' });
}
