import { isSessionOnlyPath } from '@tally/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { onFirstUse } from '../shared/on-first-use.js';

const DOCS_PATH = '/api/docs';

/** Answer headers the outer reply sets for itself. */
const OWN_HEADERS = new Set([
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * The OpenAPI document, generated from the routes' schemas, and its browsable UI at /api/docs.
 * @fastify/swagger, its UI and the document are made at the first request for them
 * (plugins/api-docs-app.ts), not at start: loading and registering them took 75-100 ms of every
 * start for a page few servers ever serve (docs/decisions/186-what-a-start-leaves-for-later.md).
 */
export const apiDocsPlugin = fp(
  async (app) => {
    const documented: RouteOptions[] = [];
    app.addHook('onRoute', (route) => {
      // The documentation is readable without signing in.
      if (route.url.startsWith(DOCS_PATH)) {
        route.config = { ...route.config, public: true };
        return;
      }
      // A public route (contract/src/routes.ts) needs no bearer token: say so in the document.
      if (route.config?.public && route.schema) route.schema = { ...route.schema, security: [] };
      // /api/account takes the session's token only (server/src/plugins/personal-tokens.ts).
      else if (route.schema && isSessionOnlyPath(route.url))
        route.schema = { ...route.schema, security: [{ bearerAuth: [] }] };
      // A HEAD route is its GET's twin; the document lists the GET.
      if (route.method !== 'HEAD') documented.push(route);
    });
    let built: FastifyInstance | undefined;
    const docsApp = onFirstUse(async () => {
      const { buildDocsApp } = await import('./api-docs-app.js');
      return (built = await buildDocsApp(documented));
    });
    app.addHook('onClose', async () => {
      await built?.close();
    });

    /** Hands the request to the documenting instance and its answer back as it is. */
    async function answerFromDocs(request: FastifyRequest, reply: FastifyReply) {
      const docs = await docsApp();
      const answer = await docs.inject({
        // The outer reply drops a HEAD answer's body itself, as for any GET route.
        method: request.method === 'HEAD' ? 'GET' : request.method,
        url: request.url,
        headers: request.headers,
      });
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !OWN_HEADERS.has(name)) reply.header(name, value);
      }
      // An unknown file answers as any unknown path does, under the documentation's policy.
      if (answer.statusCode === 404) return reply.callNotFound();
      // A redirect or a 304 has no body, and gets no content type for one.
      const body = answer.rawPayload.length > 0 ? answer.rawPayload : undefined;
      return reply.code(answer.statusCode).send(body);
    }
    const hidden = { schema: { hide: true } };
    app.get(DOCS_PATH, hidden, answerFromDocs);
    app.get(`${DOCS_PATH}/*`, hidden, answerFromDocs);
  },
  { name: 'api-docs' },
);
