import { i18n } from '@lingui/core';
import { ApiError, errorMessage, type Operation } from './api-error';
import { showNotice } from './notices';

/** A failed change is logged and shown in a dismissible notice (docs/product.md, Errors). */
export function reportMutationError(error: unknown, operation: Operation): void {
  console.warn(i18n._(operation), error);
  if (error instanceof ApiError && error.handled) return;
  showNotice(errorMessage(error, operation), { tone: 'error' });
}
