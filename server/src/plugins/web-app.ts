import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

const isSourceMap = (url: string) => /\.map(?:[?#]|$)/i.test(url);

export interface WebAppPluginOptions {
  /** The built single-page app (web/dist); null serves only the API. */
  distDir: string | null;
}

/**
 * Serves the built app: hashed assets cached for a year, index.html never cached, and every
 * unknown non-API GET answered with index.html so client-side routes survive a reload.
 * Unknown /api paths and source maps (docs/decisions/074-framing-caching-and-source-maps.md) get a JSON 404.
 */
export const webAppPlugin = fp<WebAppPluginOptions>(
  async (app, { distDir }) => {
    // The app's files are public; only /api routes can require a token.
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api')) route.config = { ...route.config, public: true };
    });
    if (distDir) {
      await app.register(fastifyStatic, {
        root: distDir,
        // One route for every file, looked up when asked: `wildcard: false` walked web/dist with
        // glob at start, whose Unicode normalisation mapped ICU's data into every server
        // (docs/performance.md, Footprint). A missing file falls to the handler below.
        wildcard: true,
        preCompressed: true,
        // Source maps would hand out the app's sources: a build that has them keeps them to itself.
        allowedPath: (pathName) => !isSourceMap(pathName),
        setHeaders(reply, filePath) {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header(
            'cache-control',
            immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }

    app.setNotFoundHandler((request, reply) => {
      const isApi = request.url === '/api' || request.url.startsWith('/api/');
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') && !isSourceMap(request.url);
      if (distDir && !isApi && wantsPage) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.code(404).send({ error: 'Not found' });
    });
  },
  { name: 'web-app' },
);
