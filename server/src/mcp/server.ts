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
import { MCP_TOOLS, type McpToolName, type TokenScope } from '@tally/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { READ_ONLY_TOKEN } from '../plugins/personal-tokens.js';
import {
  apiCaller,
  type CallApi,
  invalidArguments,
  type QuickAddContext,
  runTool,
} from './tools.js';

/**
 * The protocol side of the MCP endpoint (docs/decisions/134-mcp-through-the-api.md), loaded at
 * the first MCP request (routes.ts): each POST gets a server and a transport of its own,
 * stateless, which end with the answer.
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

function mcpServer(
  scope: TokenScope,
  api: CallApi,
  quick: QuickAddContext,
  log: FastifyRequest['log'],
): Server {
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
    const answer = await runTool(name, args, api, quick);
    log.info({ mcpTool: name, refused: answer.refusal !== undefined }, 'MCP tool called');
    if (!answer.structured) return { isError: true, content: [text(answer.refusal ?? '')] };
    return {
      content: [text(JSON.stringify(answer.structured))],
      structuredContent: answer.structured as Record<string, unknown>,
    };
  });
  return server;
}

/** Answers one POST /mcp of a checked token. */
export async function answerMcp(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: {
    token: string;
    scope: TokenScope;
    timeZone: string | undefined;
    now: () => number;
    accountZone: () => Promise<string | null>;
    accountLanguage: () => Promise<string | null>;
  },
): Promise<void> {
  const quick: QuickAddContext = {
    now: caller.now,
    // The zone the assistant names for this request, else the account's, else UTC.
    timeZone: async () => caller.timeZone ?? (await caller.accountZone()) ?? 'UTC',
    language: caller.accountLanguage,
  };
  const server = mcpServer(
    caller.scope,
    apiCaller(app, caller.token, caller.timeZone),
    quick,
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
}
