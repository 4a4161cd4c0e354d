import type { ErrorCode } from '@tally/contract';

/** The messages of docs/product.md, Errors, in one place. */
export const ERROR_MESSAGES = {
  server: 'Server error - please try again later',
  network: 'Network error - check your connection',
  invalidToken: 'Invalid token received from server',
  authenticationFailed: (status: number) =>
    `Authentication failed (${status}) - please log in again`,
  operationFailed: (operation: string) => `${operation} failed`,
  changedElsewhere: 'Changed elsewhere meanwhile: the list shows it as it is now',
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
  /** The request field a 400 refused (its sentence names it first), for the form to mark. */
  readonly field: string | null;
  /** A 412's answer: the todo (or group) as it is now, changed since the version sent. */
  readonly current: unknown;

  constructor(
    message: string,
    status: number | null,
    options: { handled?: boolean; code?: ErrorCode; field?: string; current?: unknown } = {},
  ) {
    // The message stays the server's error field (the API's error catalogue); beside a
    // field the form shows it as a sentence (fieldErrorOf).
    super(message);
    this.status = status;
    this.handled = options.handled ?? false;
    this.code = options.code ?? null;
    this.current = options.current;
    this.field =
      options.field ?? (status === 400 ? (FIELD_SENTENCE.exec(message)?.[1] ?? null) : null);
  }
}

/**
 * For a call whose refusals with one of `statuses` all concern one field, whatever their words
 * (a group name already taken: 409; an import file the server cannot read): re-throws such a
 * refusal as that field's, so that the form shows it beside the field (fieldErrorOf).
 */
export function refusalOfField(field: string, statuses: readonly number[]) {
  return (error: unknown): never => {
    if (
      error instanceof ApiError &&
      error.field === null &&
      error.status !== null &&
      statuses.includes(error.status)
    ) {
      throw new ApiError(error.message, error.status, {
        field,
        handled: error.handled,
        ...(error.code ? { code: error.code } : {}),
      });
    }
    throw error;
  };
}

/** A validation sentence of the server: "<field> must …" (docs/product.md, Errors). */
const FIELD_SENTENCE =
  /^([a-z][A-Za-z0-9]*) ((?:must|is|are|has|have|cannot|can't|may|was|does) .*)$/;

/** Request fields whose words are not their name split apart. */
const FIELD_WORDS: Record<string, string> = {
  groupId: 'group',
  parentId: 'parent todo',
  email: 'e-mail address',
  url: 'address',
};

/**
 * "newPassword must be at least 8 characters" → "The new password must be at least 8
 * characters.": a sentence a person reads, without the API's field names (decision 087).
 */
function readableSentence(field: string, rest: string): string {
  const words = FIELD_WORDS[field] ?? field.replace(/([A-Z])/g, ' $1').toLowerCase();
  const sentence = `The ${words} ${rest}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/**
 * The server's sentence when it refused the value of one field (a 400 naming `field`), as a
 * person reads it ("The new password must be …."), to show beside that field; otherwise null.
 */
export function fieldErrorOf(error: unknown, field: string): string | null {
  if (!(error instanceof ApiError) || error.field !== field) return null;
  const sentence = FIELD_SENTENCE.exec(error.message);
  if (sentence?.[1] === field) return readableSentence(field, sentence[2] ?? '');
  // Already a sentence about the field ("You already have a group named …").
  return /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
}

/** The sentence for any thrown value: the ApiError's, the error's own, else "{operation} failed". */
export function errorMessage(error: unknown, operation: string): string {
  if (error instanceof Error && error.message) return error.message;
  return ERROR_MESSAGES.operationFailed(operation);
}

/** The todo (or group) a 412 answered, as it is now; null for any other failure. */
export function conflictOf<T extends { id: number; version: number }>(error: unknown): T | null {
  if (!(error instanceof ApiError) || error.status !== 412) return null;
  const current = error.current;
  return typeof current === 'object' && current !== null && 'version' in current
    ? (current as T)
    : null;
}
