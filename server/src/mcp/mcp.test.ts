import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  calendarApi,
  GROUP_COLORS,
  groupsApi,
  MCP_PATH,
  MCP_TOOLS,
  type Todo,
  todosApi,
  type TokenScope,
  tokensApi,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';

/**
 * The MCP endpoint through the SDK's own client over real HTTP (docs/product.md, AI
 * assistants): what a desktop assistant sees, on this run's database.
 */

let ctx: TestContext;
let endpoint: URL;

beforeAll(async () => {
  ctx = await createTestApp();
  const address = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  endpoint = new URL(MCP_PATH, address);
});
afterAll(() => ctx.close());

async function makeToken(user: TestUser, scope: TokenScope): Promise<string> {
  const created = await apiClient(ctx.app, user)(tokensApi.create, {
    body: { name: `Assistant (${scope})`, scope, expiresInDays: null },
  });
  return created.expectBody(201).token;
}

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function connect(token: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'tally-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A successful call's structured answer (the client checked it against the output schema). */
async function call<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as T;
}

/** A refused call's sentence. */
async function refusal(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

describe('a read-write token', () => {
  let user: TestUser;
  let client: Client;

  beforeAll(async () => {
    user = await registerUser(ctx.app);
    client = await connect(await makeToken(user, 'read-write'));
  });

  it('lists every tool with the schemas of the contract', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(MCP_TOOLS).sort());
    const add = tools.find((tool) => tool.name === 'add_todo');
    expect(add?.inputSchema.properties).toHaveProperty('text');
    expect(add?.outputSchema?.properties).toHaveProperty('version');
    expect(add?.annotations?.readOnlyHint).toBe(false);
  });

  it('adds a todo from quick-add text, finds it, completes it', async () => {
    const group = await apiClient(ctx.app, user)(groupsApi.create, {
      body: { name: 'Errands', color: GROUP_COLORS[0] },
    });
    const errands = group.expectBody(201);
    const added = await call<Todo>(client, 'add_todo', {
      text: 'Buy oat milk @shop p1 #errands',
      dueDate: '2026-03-12',
    });
    expect(added).toMatchObject({
      title: 'Buy oat milk',
      tags: ['shop'],
      priority: 3,
      groupId: errands.id,
      dueDate: '2026-03-12',
      completed: false,
    });

    const found = await call<{ todos: Todo[]; total: number }>(client, 'find_todos', {
      q: 'oat mil',
    });
    expect(found.todos.map((todo) => todo.id)).toEqual([added.id]);
    const inGroup = await call<{ todos: Todo[] }>(client, 'find_todos', { groupId: errands.id });
    expect(inGroup.todos.map((todo) => todo.id)).toEqual([added.id]);

    const done = await call<Todo>(client, 'complete_todo', {
      id: added.id,
      version: added.version,
    });
    expect(done).toMatchObject({ id: added.id, completed: true });
    // What the web app sees through /api is the same todo.
    const list = await apiClient(ctx.app, user)(todosApi.list);
    expect(list.expectBody(200)).toEqual([done]);
  });

  it('reads dates, repeats and groups from quick-add text as the web app does, in the user zone', async () => {
    const other = await registerUser(ctx.app);
    const session = apiClient(ctx.app, other);
    const home = (
      await session(groupsApi.create, { body: { name: 'Home', color: GROUP_COLORS[0] } })
    ).expectBody(201);
    // The account's zone is its calendar feed's: at 12:00 UTC it is already tomorrow there.
    await session(calendarApi.regenerate, { headers: { 'x-time-zone': 'Pacific/Auckland' } });
    const token = await makeToken(other, 'read-write');
    const assistant = await connect(token);
    const added = await call<Todo>(assistant, 'add_todo', {
      text: 'Pay rent tomorrow #Home every month',
    });
    expect(added).toMatchObject({
      title: 'Pay rent',
      dueDate: '2026-03-12',
      dueTime: null,
      groupId: home.id,
      repeat: { every: 1, unit: 'month', from: 'due' },
    });
    // Wednesday 11 March there: next week starts on Monday the 16th.
    const planned = await call<Todo>(assistant, 'add_todo', { text: 'Plan the trip next week' });
    expect(planned).toMatchObject({ title: 'Plan the trip', dueDate: '2026-03-16' });
    // A zone the assistant names for its request wins over the account's.
    const inUtc = await connect(token, { 'x-time-zone': 'UTC' });
    const due = await call<Todo>(inUtc, 'add_todo', { text: 'Pay by Dec 12 9:30' });
    expect(due).toMatchObject({ title: 'Pay', dueDate: '2026-12-12', dueTime: '09:30' });
    expect((await call<Todo>(inUtc, 'add_todo', { text: 'Call tomorrow' })).dueDate).toBe(
      '2026-03-11',
    );
  });

  it('reschedules, updates, reopens and trashes, keeping to versions', async () => {
    const added = await call<Todo>(client, 'add_todo', { title: 'Call the plumber' });
    const moved = await call<Todo>(client, 'reschedule_todo', {
      id: added.id,
      dueDate: '2026-03-20',
      dueTime: '09:30',
    });
    expect(moved).toMatchObject({ dueDate: '2026-03-20', dueTime: '09:30' });
    // A version read before the reschedule no longer holds: nothing changes.
    expect(
      await refusal(client, 'update_todo', {
        id: added.id,
        version: added.version,
        title: 'Call someone',
      }),
    ).toMatch(/changed since that version/);
    const renamed = await call<Todo>(client, 'update_todo', {
      id: added.id,
      version: moved.version,
      title: 'Call the plumber back',
    });
    expect(renamed.title).toBe('Call the plumber back');
    const done = await call<Todo>(client, 'complete_todo', { id: added.id });
    const reopened = await call<Todo>(client, 'reopen_todo', {
      id: added.id,
      version: done.version,
    });
    expect(reopened).toMatchObject({ completed: false, title: 'Call the plumber back' });
    const got = await call<Todo>(client, 'get_todo', { id: added.id });
    expect(got).toEqual(reopened);

    const trashed = await call<{ trashed: Todo }>(client, 'delete_todo', { id: added.id });
    expect(trashed.trashed).toEqual(reopened);
    expect(await refusal(client, 'get_todo', { id: added.id })).toBe('Todo not found');
  });

  it('lists groups and tags and sums up Insights', async () => {
    const groups = await call<{ groups: { name: string }[] }>(client, 'list_groups', {});
    expect(groups.groups.map((group) => group.name)).toEqual(['Errands']);
    const tags = await call<{ tags: { name: string }[] }>(client, 'list_tags', {});
    expect(tags.tags.map((tag) => tag.name)).toEqual(['shop']);
    const insights = await call<Record<string, unknown>>(client, 'insights_summary', { weeks: 4 });
    // Four weeks back from the test clock's Tuesday 2026-03-10, weeks starting on Monday.
    expect(insights).toMatchObject({ from: '2026-02-16' });
  });

  it('answers bad arguments with a tool error naming the field, and changes nothing', async () => {
    const before = (await apiClient(ctx.app, user)(todosApi.list)).expectBody(200);
    expect(await refusal(client, 'get_todo', { id: 'seven' })).toMatch(/^id: /);
    expect(await refusal(client, 'add_todo', { title: '   ' })).toMatch(/title/);
    expect(await refusal(client, 'add_todo', {})).toMatch(/^text or title/);
    expect(await refusal(client, 'add_todo', { title: 'x', colour: 'red' })).toMatch(/colour/);
    expect(await refusal(client, 'find_todos', { q: 'milk', view: 'today' })).toBe(
      'q cannot be combined with view',
    );
    expect(await refusal(client, 'complete_todo', { id: 2_000_000 })).toBe('Todo not found');
    expect((await apiClient(ctx.app, user)(todosApi.list)).expectBody(200)).toEqual(before);
    await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
  });

  it("shows in the token's activity", async () => {
    const tokens = (await apiClient(ctx.app, user)(tokensApi.list)).expectBody(200);
    expect(tokens[0]?.lastUsedAt).toBe(new Date(ctx.clock.now()).toISOString());
  });
});

describe('the time zone', () => {
  it("comes from the X-Time-Zone header: Today is the user's today", async () => {
    const user = await registerUser(ctx.app);
    const token = await makeToken(user, 'read-write');
    // The test clock's noon UTC on 2026-03-10 is already 2026-03-11 at UTC+14.
    const kiritimati = await connect(token, { 'x-time-zone': 'Pacific/Kiritimati' });
    const utc = await connect(token);
    const added = await call<Todo>(kiritimati, 'add_todo', {
      title: 'Water the plants',
      dueDate: '2026-03-11',
    });
    const today = { view: 'today' };
    const there = await call<{ todos: Todo[] }>(kiritimati, 'find_todos', today);
    expect(there.todos.map((todo) => todo.id)).toEqual([added.id]);
    expect((await call<{ todos: Todo[] }>(utc, 'find_todos', today)).todos).toEqual([]);
  });
});

describe('a read-only token', () => {
  it('is offered only the read tools and cannot write', async () => {
    const user = await registerUser(ctx.app);
    const client = await connect(await makeToken(user, 'read'));
    const { tools } = await client.listTools();
    const reads = Object.entries(MCP_TOOLS).filter(([, tool]) => !tool.write);
    expect(tools.map((tool) => tool.name).sort()).toEqual(reads.map(([name]) => name).sort());
    expect(await refusal(client, 'add_todo', { title: 'Sneaky' })).toBe(
      'This API token is read-only: it cannot make changes',
    );
    expect((await apiClient(ctx.app, user)(todosApi.list)).expectBody(200)).toEqual([]);
    const found = await call<{ todos: Todo[] }>(client, 'find_todos', {});
    expect(found.todos).toEqual([]);
  });
});

describe("the token's requests a minute", () => {
  it('are shared with /api: once spent there, /mcp answers 429 with Retry-After', async () => {
    const user = await registerUser(ctx.app);
    const token = await makeToken(user, 'read');
    const client = await connect(token);
    const api = apiClient(ctx.app, { token });
    // The connection's own requests counted too; the rest of the minute goes on /api.
    let status = 200;
    while (status === 200) status = (await api.unchecked(todosApi.counts, {})).statusCode;
    expect(status).toBe(429);
    const refused = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await expect(client.listTools()).rejects.toMatchObject({ code: 429 });
    // A minute later the token works again.
    ctx.clock.advance(60_000);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe('refused at the door', () => {
  const post = (headers: Record<string, string>) =>
    fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  it('answers a wrong token 401 and the SDK client fails to connect', async () => {
    const wrong = await post({ authorization: 'Bearer tally_pat_not-a-real-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(await wrong.json()).toEqual({
      error: 'This API token is not valid: it was revoked or never existed',
    });
    expect((await post({})).status).toBe(401);
    await expect(connect('tally_pat_not-a-real-token')).rejects.toMatchObject({ code: 401 });
  });

  it("refuses a session's access token and other sites' pages", async () => {
    const user = await registerUser(ctx.app);
    expect((await post({ authorization: `Bearer ${user.token}` })).status).toBe(401);
    const token = await makeToken(user, 'read');
    expect(
      (await post({ authorization: `Bearer ${token}`, origin: 'https://evil.example' })).status,
    ).toBe(403);
  });

  it('is left out of the OpenAPI document, which points to it', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      info: { description: string };
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(document.paths)).not.toContain(MCP_PATH);
    expect(document.info.description).toContain(`AI assistants use ${MCP_PATH} instead`);
  });

  it('answers with the headers of every answer', async () => {
    const user = await registerUser(ctx.app);
    const response = await post({ authorization: `Bearer ${await makeToken(user, 'read')}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toContain('no-store');
  });

  it('answers GET 405: the endpoint keeps no stream open', async () => {
    const user = await registerUser(ctx.app);
    const token = await makeToken(user, 'read');
    const response = await fetch(endpoint, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
