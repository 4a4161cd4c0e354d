import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
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
            bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          },
        },
        security: [{ bearerAuth: [] }],
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
