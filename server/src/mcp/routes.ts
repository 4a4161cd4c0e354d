import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  MCP_PATH,
  MCP_TOOLS,
  PERSONAL_TOKEN_PREFIX,
  TIME_ZONE_HEADER,
  type McpToolName,
  type TokenScope,
} from '@tally/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { personalTokenChecker, READ_ONLY_TOKEN } from '../plugins/personal-tokens.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { apiCaller, type CallApi, invalidArguments, runTool } from './tools.js';

/**
 * The MCP endpoint (docs/product.md, AI assistants; docs/decisions/134-mcp-through-the-api.md):
 * Model Context Protocol over Streamable HTTP, stateless, signed in with a personal API token.
 * Each POST gets a server and a transport of its own, which end with the answer.
 */

const isTool = (name: string): name is McpToolName => Object.hasOwn(MCP_TOOLS, name);

/** The tools a token of this scope is offered: a read-only token gets no write tool. */
function toolsFor(scope: TokenScope): Tool[] {
  return Object.entries(MCP_TOOLS)
    .filter(([, tool]) => scope === 'read-write' || !tool.write)
    .map(([name, tool]) => ({
      name,
      description: tool.description,
      inputSchema: tool.input as Tool['inputSchema'],
      outputSchema: tool.output as Tool['outputSchema'],
      annotations: {
        readOnlyHint: !tool.write,
        destructiveHint: 'destructive' in tool && tool.destructive,
        openWorldHint: false,
      },
    }));
}

const text = (value: string) => ({ type: 'text' as const, text: value });

function mcpServer(scope: TokenScope, api: CallApi, log: FastifyRequest['log']): Server {
  const server = new Server(
    // The version of the tool set (contract/src/mcp.ts), not of the app.
    { name: 'tally', title: 'Tally', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      instructions:
        "Tally is the user's to-do list. find_todos and list_groups tell the ids other tools take.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolsFor(scope) }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    if (!isTool(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    if (MCP_TOOLS[name].write && scope !== 'read-write') {
      return { isError: true, content: [text(READ_ONLY_TOKEN)] };
    }
    const wrong = invalidArguments(name, args);
    if (wrong) return { isError: true, content: [text(wrong)] };
    const answer = await runTool(name, args, api);
    log.info({ mcpTool: name, refused: answer.refusal !== undefined }, 'MCP tool called');
    if (!answer.structured) return { isError: true, content: [text(answer.refusal ?? '')] };
    return {
      content: [text(JSON.stringify(answer.structured))],
      structuredContent: answer.structured as Record<string, unknown>,
    };
  });
  return server;
}

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
      const { scope } = await checkToken(token, false).catch((error: unknown) => {
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
      const server = mcpServer(
        scope,
        apiCaller(app, token, Array.isArray(zone) ? zone[0] : zone),
        request.log,
      );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // The transport writes the answer: it carries the headers every answer of Tally has.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
};
