import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  MCP_PATH,
  PERSONAL_TOKEN_PREFIX,
  TOKEN_REQUESTS_PER_MINUTE,
  WebhookPayloadSchema,
} from '@tally/contract';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';

/** What the document says of a change's 403, beside the coded refusals every signed-in call has. */
const READ_ONLY_REFUSAL =
  'Refused: a read-only personal API token on a change ("This API token is read-only: it cannot ' +
  'make changes"), a session that must change its one-time password first, or (with code ' +
  'reauthentication_required) a sensitive change without a recent proof of identity.';

type Operation = {
  /** `[]` on a public call (no bearer token): see the onRoute hook below. */
  security?: unknown[];
  responses?: Record<string, { description?: string; content?: object }>;
};

/**
 * Two things the routes' schemas cannot say, written into the generated document: every error
 * answer is JSON, even of a call whose success is a file (the ICS feed, the CSV export), and every
 * change may be refused with a 403 for a read-only token (plugins/personal-tokens.ts).
 */
function documentRefusals(paths: Record<string, Record<string, Operation>>): void {
  for (const operations of Object.values(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (/^2/.test(status) || !response.content) continue;
        const [schema] = Object.values(response.content) as unknown[];
        response.content = { 'application/json': schema };
      }
      // A public call takes no token, so its 403 keeps its own meaning (sign-up closed, a
      // request from another site).
      const takesToken = operation.security?.length !== 0;
      const refused = operation.responses?.['403'];
      if (refused && takesToken && !['get', 'head'].includes(method)) {
        refused.description = READ_ONLY_REFUSAL;
      }
    }
  }
}

/**
 * What Tally sends to a user's webhooks (OpenAPI 3.1's `webhooks`): the routes describe only what
 * Tally receives, so the payload's schema is written in here (notifications/requests.ts signs it).
 */
const WEBHOOKS = {
  event: {
    post: {
      summary: 'A todo or group event, or a reminder, sent to a webhook channel',
      description:
        'Signed as Standard Webhooks say: webhook-id (the same on every attempt), ' +
        'webhook-timestamp (seconds) and webhook-signature (v1,base64 HMAC-SHA256 over ' +
        '"id.timestamp.body" with the channel\'s signing secret). Any 2xx answer is success; ' +
        'anything else is retried for about 27 hours.',
      requestBody: { content: { 'application/json': { schema: WebhookPayloadSchema } } },
      responses: { '2XX': { description: 'Received' } },
    },
  },
};

/**
 * A Fastify instance that only documents: the routes the app collected (with their schemas,
 * already adjusted by plugins/api-docs.ts), behind @fastify/swagger and its UI at /api/docs. It
 * answers nothing but the documentation, so it compiles no validator or serializer.
 */
export async function buildDocsApp(routes: readonly RouteOptions[]): Promise<FastifyInstance> {
  const docs = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  docs.setValidatorCompiler(() => () => true);
  docs.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await docs.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tally API',
        description:
          'The API of Tally, a personal to-do app. Errors are always {"error": "..."}. ' +
          `AI assistants use ${MCP_PATH} instead (Model Context Protocol over Streamable ` +
          'HTTP, with a personal API token): not a call of this document, its tools and their ' +
          "JSON Schemas are listed by MCP's own tools/list.",
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The access token of a signed-in session (POST /api/auth/login), 15 minutes.',
          },
          personalToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              `A personal API token (${PERSONAL_TOKEN_PREFIX}…) from Settings → API tokens, sent ` +
              `as Authorization: Bearer ${PERSONAL_TOKEN_PREFIX}…. A read token may only GET ` +
              '(403 on a change); no personal token works on /api/account or /api/auth (403). ' +
              `Each token makes at most ${TOKEN_REQUESTS_PER_MINUTE} requests a minute (429 with Retry-After).`,
          },
        },
      },
      // Either scheme, except where an operation names the session's only.
      security: [{ bearerAuth: [] }, { personalToken: [] }],
    },
    transformObject: (document) => {
      const openapi = 'openapiObject' in document ? document.openapiObject : null;
      if (openapi?.paths) documentRefusals(openapi.paths as Parameters<typeof documentRefusals>[0]);
      return openapi ? { ...openapi, webhooks: WEBHOOKS } : {};
    },
  });
  await docs.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // swagger-ui's own policy allows <base> and framing by the same origin; Tally allows
    // neither anywhere (decision 074).
    transformStaticCSP: (header) =>
      header
        .replace("base-uri 'self'", "base-uri 'none'")
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
    uiConfig: { docExpansion: 'list', deepLinking: false },
  });
  // Registered after swagger, so its onRoute hook sees each of them. CalDAV's own methods
  // (caldav/routes.ts) are added here as there.
  for (const route of routes) {
    for (const method of [route.method].flat()) {
      if (!docs.supportedMethods.includes(method)) docs.addHttpMethod(method, { hasBody: true });
    }
    docs.route({
      method: route.method,
      url: route.url,
      ...(route.schema ? { schema: route.schema } : {}),
      ...(route.config ? { config: route.config } : {}),
      handler: () => undefined,
    });
  }
  await docs.ready();
  return docs;
}
