import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/errors.js';
import type { ErrorCode } from '@tally/contract';
import { validationError } from '../shared/validation-message.js';

const CLIENT_ERROR_SENTENCES: Record<number, string> = {
  400: 'The request is malformed',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'The request took too long',
  413: `The request body is too large`,
  415: 'Content-Type must be application/json',
  429: 'Too many requests - try again later',
};

/** The statuses whose sentence above has one meaning a client can word itself. */
const CLIENT_ERROR_CODES: Partial<Record<number, ErrorCode>> = {
  404: 'not_found',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08006',
  'SQLITE_BUSY',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && DATABASE_DOWN_CODES.has(code)) return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
        message,
      )
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A body limit as the 413 names it: 64 KiB, 512 KiB, 4 MiB. */
const sizeOf = (bytes: number) =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / 1024 / 1024} MiB`
    : `${Math.round(bytes / 1024)} KiB`;

/**
 * The one error handler: every failure becomes `{"error": sentence}` with the right status, and
 * beside it a `code` (and the `field`) where the sentence has one meaning (decision 178).
 * 5xx bodies say nothing internal; the details go to the log.
 */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        if (error.statusCode >= 500) request.log.warn({ err: error }, error.message);
        const body =
          error.answer ??
          (error.code ? { error: error.message, code: error.code } : { error: error.message });
        return reply.code(error.statusCode).headers(error.headers).send(body);
      }
      const fastifyError = error as FastifyError;
      if (fastifyError.validation) {
        const part = fastifyError.validationContext ?? 'body';
        return reply
          .code(400)
          .send(
            validationError(
              fastifyError.validation as Parameters<typeof validationError>[0],
              part === 'querystring' ? 'query' : part,
            ),
          );
      }
      const status = fastifyError.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        let sentence = CLIENT_ERROR_SENTENCES[status] ?? 'The request cannot be processed';
        let code = CLIENT_ERROR_CODES[status];
        if (fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
          sentence = 'The request body must be a JSON object';
          code = 'invalid_json';
        } else if (status === 400 && /JSON/i.test(`${fastifyError.code} ${fastifyError.message}`)) {
          sentence = 'The request body is not valid JSON';
          code = 'invalid_json';
        } else if (status === 413) {
          // The route's own limit (CalDAV's is larger than the JSON API's).
          sentence = `The request body is too large (${sizeOf(request.routeOptions.bodyLimit)} at most)`;
        }
        return reply.code(status).send(code ? { error: sentence, code } : { error: sentence });
      }
      if (isDatabaseUnavailable(error)) {
        request.log.error({ err: error }, 'database unavailable');
        return reply.code(503).header('retry-after', '5').send({
          error: 'Service unavailable - the database cannot be reached, try again shortly',
          code: 'database_unavailable',
        });
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send({ error: 'Internal server error', code: 'internal_error' });
    });
  },
  { name: 'error-handler' },
);
