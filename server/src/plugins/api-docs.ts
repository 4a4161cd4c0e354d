import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  isSessionOnlyPath,
  PERSONAL_TOKEN_PREFIX,
  TOKEN_REQUESTS_PER_MINUTE,
} from '@tally/contract';
import fp from 'fastify-plugin';

/** The OpenAPI document, generated from the routes' schemas, and its browsable UI at /api/docs. */
export const apiDocsPlugin = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      // The documentation is readable without signing in.
      if (route.url.startsWith('/api/docs')) route.config = { ...route.config, public: true };
      // A public route (contract/src/routes.ts) needs no bearer token: say so in the document.
      else if (route.config?.public && route.schema)
        route.schema = { ...route.schema, security: [] };
      // /api/account takes the session's token only (server/src/plugins/personal-tokens.ts).
      else if (route.schema && isSessionOnlyPath(route.url))
        route.schema = { ...route.schema, security: [{ bearerAuth: [] }] };
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Tally API',
          description:
            'The API of Tally, a personal to-do app. Errors are always {"error": "..."}.',
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
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // swagger-ui's own policy allows <base> and framing by the same origin; Tally allows
      // neither anywhere (issue 6).
      transformStaticCSP: (header) =>
        header
          .replace("base-uri 'self'", "base-uri 'none'")
          .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
      uiConfig: { docExpansion: 'list', deepLinking: false },
    });
  },
  { name: 'api-docs' },
);
