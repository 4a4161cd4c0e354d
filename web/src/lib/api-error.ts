import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { ErrorCode } from '@tally/contract';

/**
 * A call, named by the sentence its failure shows when the server gives none: a message of its
 * own per call (`msg\`Create todo failed\``), not a name put into a shared frame, so that each
 * language can word the whole sentence (docs/decisions/191-operation-failures.md).
 */
export type Operation = MessageDescriptor;

/**
 * The messages of docs/product.md, Errors, in one place, in the active language (read when shown,
 * so a change of language applies to the next one).
 */
export const ERROR_MESSAGES = {
  get server() {
    return i18n._(msg`Server error - please try again later`);
  },
  get network() {
    return i18n._(msg`Network error - check your connection`);
  },
  get invalidToken() {
    return i18n._(msg`Invalid token received from server`);
  },
  authenticationFailed: (status: number) =>
    i18n._(msg`Authentication failed (${status}) - please log in again`),
  operationFailed: (operation: Operation) => i18n._(operation),
  get changedElsewhere() {
    return i18n._(msg`Changed elsewhere meanwhile: the list shows it as it is now`);
  },
};

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
  /** The length or value limit the field broke (the server's `limit`). */
  readonly limit: number | null;
  /** A 412's answer: the todo (or group) as it is now, changed since the version sent. */
  readonly current: unknown;

  constructor(
    message: string,
    status: number | null,
    options: {
      handled?: boolean;
      code?: ErrorCode;
      field?: string;
      limit?: number;
      current?: unknown;
    } = {},
  ) {
    // The message stays the server's error field (the API's error catalogue); beside a
    // field the form shows it as a sentence (fieldErrorOf).
    super(message);
    this.status = status;
    this.handled = options.handled ?? false;
    this.code = options.code ?? null;
    this.limit = options.limit ?? null;
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
        ...(error.limit === null ? {} : { limit: error.limit }),
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

/** The request fields the forms show, named as their labels name them, in every language. */
const FIELD_MESSAGES: Record<string, MessageDescriptor> = {
  title: msg`title`,
  description: msg`description`,
  name: msg`name`,
  username: msg`username`,
  email: msg`e-mail address`,
  password: msg`password`,
  currentPassword: msg`current password`,
  newPassword: msg`new password`,
  code: msg`code`,
  url: msg`address`,
  groupId: msg`group`,
  parentId: msg`parent todo`,
  label: msg`label`,
  file: msg`file`,
};

/** The field as a person reads it: its label's word (in the active language), else its name split. */
function fieldWords(field: string): string {
  const message = FIELD_MESSAGES[field];
  if (message) return i18n._(message);
  return FIELD_WORDS[field] ?? field.replace(/([A-Z])/g, ' $1').toLowerCase();
}

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
 * A coded refusal in the active language (docs/decisions/178-error-codes.md), or null for a code
 * it has no words for. English keeps the server's own sentence, which may say more (the format
 * a field takes), so this is asked for other languages only.
 */
function codedSentence(error: ApiError): string | null {
  const field = fieldWords(error.field ?? 'body');
  const limit = error.limit ?? 0;
  switch (error.code) {
    case 'required':
      return i18n._(msg`The ${field} is required.`);
    case 'empty':
      return i18n._(msg`The ${field} must not be empty.`);
    case 'too_short':
      return i18n._(
        msg`The ${field} must be at least ${plural(limit, { one: '# character', other: '# characters' })}.`,
      );
    case 'too_long':
      return i18n._(
        msg`The ${field} must be at most ${plural(limit, { one: '# character', other: '# characters' })}.`,
      );
    case 'too_small':
      return i18n._(msg`The ${field} must be at least ${limit}.`);
    case 'too_large':
      return i18n._(msg`The ${field} must be at most ${limit}.`);
    case 'invalid_email':
      return i18n._(msg`The ${field} must be a valid e-mail address.`);
    case 'invalid_unicode':
      return i18n._(msg`The ${field} holds text that is not valid Unicode.`);
    case 'invalid_format':
    case 'wrong_type':
    case 'not_allowed':
    case 'unknown_field':
      return i18n._(msg`The ${field} is not valid.`);
    case 'invalid_json':
    case 'unsupported_media_type':
      return i18n._(msg`The server could not read the request. Please try again.`);
    case 'body_too_large':
      return i18n._(msg`That is too large to send.`);
    case 'not_found':
      return i18n._(msg`Not found: it may have been deleted meanwhile.`);
    case 'rate_limited':
      return i18n._(msg`Too many requests - try again later`);
    case 'database_unavailable':
    case 'internal_error':
      return ERROR_MESSAGES.server;
    default:
      return null;
  }
}

/** The server's sentence in the active language when its code has words here, else as it came. */
function translated(error: ApiError): string | null {
  return i18n.locale === 'en' || error.code === null ? null : codedSentence(error);
}

/**
 * The server's sentence when it refused the value of one field (a 400 naming `field`), as a
 * person reads it ("The new password must be …."), to show beside that field; otherwise null.
 */
export function fieldErrorOf(error: unknown, field: string): string | null {
  if (!(error instanceof ApiError) || error.field !== field) return null;
  const inLanguage = translated(error);
  if (inLanguage) return inLanguage;
  const sentence = FIELD_SENTENCE.exec(error.message);
  if (sentence?.[1] === field) return readableSentence(field, sentence[2] ?? '');
  // Already a sentence about the field ("You already have a group named …").
  return /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
}

/** The sentence for any thrown value: the ApiError's, the error's own, else the operation's. */
export function errorMessage(error: unknown, operation: Operation): string {
  if (error instanceof ApiError) {
    const inLanguage = translated(error);
    if (inLanguage) return inLanguage;
  }
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
