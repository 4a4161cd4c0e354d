import { MCP_PATH, PERSONAL_TOKEN_PREFIX, TIME_ZONE_HEADER } from '@tally/contract';
import type { FastifyPluginAsync } from 'fastify';
import { userPreferences } from '../account/preferences.js';
import { personalTokenChecker } from '../plugins/personal-tokens.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { onFirstUse } from '../shared/on-first-use.js';

/**
 * The MCP endpoint (docs/product.md, AI assistants; docs/decisions/134-mcp-through-the-api.md):
 * Model Context Protocol over Streamable HTTP, signed in with a personal API token. The door is
 * here; the SDK and the tools load at the first request that passes it (server.ts), so a
 * server no assistant uses never holds them (docs/decisions/097-modules-on-first-use.md).
 */

const loadServer = onFirstUse(() => import('./server.js'));

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;

export const mcpRoutes: FastifyPluginAsync<{ clock: Clock; publicUrl: string }> = async (
  app,
  { clock, publicUrl },
) => {
  const checkToken = personalTokenChecker(app, clock);
  const ownOrigin = new URL(publicUrl).origin;

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: MCP_PATH,
    // Signed in here, with a personal token only: the /api hook would refuse every POST of a
    // read-only token, and MCP reads with POST too.
    config: { public: true },
    // Not a call of the OpenAPI document: MCP describes its tools itself (tools/list).
    schema: { hide: true },
    handler: async (request, reply) => {
      const origin = request.headers.origin;
      // A web page may not drive the endpoint from the user's browser (DNS rebinding);
      // assistants send no Origin.
      if (origin !== undefined && origin !== ownOrigin) {
        throw new AppError(403, 'MCP requests from web pages of other sites are refused');
      }
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      if (!token?.startsWith(PERSONAL_TOKEN_PREFIX)) {
        throw new AppError(
          401,
          'A personal API token is required: Authorization: Bearer tally_pat_… (make one in Settings)',
          { 'www-authenticate': 'Bearer' },
        );
      }
      const { scope, user } = await checkToken(token, false).catch((error: unknown) => {
        if (error instanceof AppError && error.statusCode === 401) {
          throw new AppError(401, error.message, { 'www-authenticate': 'Bearer' });
        }
        throw error;
      });
      // Stateless: no session to resume and no stream of the server's own to listen to.
      if (request.method !== 'POST') {
        return reply
          .code(405)
          .header('allow', 'POST')
          .send({ error: 'This MCP endpoint is stateless: send every message with POST' });
      }
      const zone = request.headers[TIME_ZONE_HEADER];
      const { answerMcp } = await loadServer();
      await answerMcp(app, request, reply, {
        token,
        scope,
        timeZone: Array.isArray(zone) ? zone[0] : zone,
        now: clock,
        // The account's zone is its calendar feed's; read only when a tool reads quick-add text.
        accountZone: async () =>
          (
            await app.db
              .selectFrom('calendar_feeds')
              .select('time_zone')
              .where('user_id', '=', user.id)
              .executeTakeFirst()
          )?.time_zone ?? null,
        // Quick-add text is read in the account's language as well as English (decision 180).
        accountLanguage: async () => (await userPreferences(app.db, user.id)).language,
      });
    },
  });
};
