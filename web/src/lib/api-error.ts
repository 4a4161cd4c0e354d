import type { ErrorCode } from '@tally/contract';

/** The messages of docs/product.md, Errors, in one place. */
export const ERROR_MESSAGES = {
  server: 'Server error - please try again later',
  network: 'Network error - check your connection',
  invalidToken: 'Invalid token received from server',
  authenticationFailed: (status: number) =>
    `Authentication failed (${status}) - please log in again`,
  operationFailed: (operation: string) => `${operation} failed`,
} as const;

/**
 * A failed API call, already carrying the sentence to show. `code` is the server's, for a refusal
 * the client acts on (contract ERROR_CODES). `status` is null when no response
 * arrived. `handled` means the user has already been told (the forced logout's notice), so
 * screens should not show it a second time.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number | null;
  readonly handled: boolean;
  readonly code: ErrorCode | null;

  constructor(
    message: string,
    status: number | null,
    options: { handled?: boolean; code?: ErrorCode } = {},
  ) {
    super(message);
    this.status = status;
    this.handled = options.handled ?? false;
    this.code = options.code ?? null;
  }
}

/**
 * The server's sentence when it refused the value of one field (a 400 that names `field` first,
 * as every validation sentence does), to show beside that field; otherwise null.
 */
export function fieldErrorOf(error: unknown, field: string): string | null {
  return error instanceof ApiError && error.status === 400 && error.message.startsWith(`${field} `)
    ? error.message
    : null;
}

/** The sentence for any thrown value: the ApiError's, the error's own, else "{operation} failed". */
export function errorMessage(error: unknown, operation: string): string {
  if (error instanceof Error && error.message) return error.message;
  return ERROR_MESSAGES.operationFailed(operation);
}
