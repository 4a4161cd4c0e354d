import type { FastifyServerOptions } from 'fastify';

/** What stands in a log line for a secret taken out of it. */
const REDACTED = '[redacted]';

/** The calendar feed's path: its last segment is the feed's only credential. */
const FEED_PATH = /^(\/api\/calendar\/)[^?#]*/i;
/**
 * Query parameters that carry a secret: the token of an e-mailed link opened before 2026-11-24,
 * and the authorization code and state of a single sign-on's callback (whoever holds them before
 * the callback finishes could finish it).
 */
const SECRET_QUERY = /([?&](?:token|secret|code|state)=)[^&#]*/gi;

/**
 * The URL as a log line may show it: the calendar feed's secret and any `token=`, `secret=`,
 * `code=` or `state=` query parameter replaced by [redacted] (docs/decisions/073-secrets-out-of-urls-and-logs.md).
 */
function redactUrl(url: string): string {
  return url.replace(FEED_PATH, `$1${REDACTED}.ics`).replace(SECRET_QUERY, `$1${REDACTED}`);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

type LoggerOptions = Exclude<NonNullable<FastifyServerOptions['logger']>, boolean>;

/**
 * `logger` with the request serializer of every line that names a request (Fastify's own
 * fields, the URL redacted) and the credential headers censored, so no line, error lines
 * included, holds a secret a client sent.
 */
export function redactingLogger(logger: true | LoggerOptions): LoggerOptions {
  const options = logger === true ? {} : logger;
  return {
    ...options,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: REDACTED,
    },
    serializers: {
      ...options.serializers,
      // Fastify passes its request (typed as the raw one): the fields of its own serializer.
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url ?? ''),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
