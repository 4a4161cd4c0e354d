import type { ErrorCode } from '@tally/contract';

/**
 * The one error type the server throws on purpose. The error handler turns it into
 * `{"error": message}` (or its `answer`) with its status; anything else becomes a 500 that says nothing internal.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Headers the answer carries too (e.g. retry-after on a 429). */
    readonly headers: Record<string, string> = {},
    /** What the client should do about it (contract's ERROR_CODES), sent as `code`. */
    readonly code?: ErrorCode,
    /** The body instead of the sentence: what a 412 answers (the todo or group as it is now). */
    readonly answer?: object,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'Authentication required') => new AppError(401, message);
export const notFound = (what = 'Resource') =>
  new AppError(404, `${what} not found`, {}, 'not_found');
export const conflict = (message: string) => new AppError(409, message);
export const serviceUnavailable = (message: string) => new AppError(503, message);
