import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerHooks } from 'node:module';
import { todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  createTestDatabase,
  registerUser,
  type TestDatabase,
} from '../test/helpers.js';

/** Every module Node resolves from here on: what was loaded, seen from outside the app. */
const resolved: string[] = [];
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    resolved.push(result.url);
    return result;
  },
});

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

/** A local OTLP/HTTP receiver: the spans of every POST /v1/traces (JSON), as sent. */
let receiver: Server;
const received: { contentType: string; spans: OtlpSpan[] }[] = [];
let endpoint: string;
let database: TestDatabase;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        received.push({
          contentType: request.headers['content-type'] ?? '',
          spans: body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
        });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('traces', () => {
  // First in the file: nothing before it has loaded OpenTelemetry.
  it('are off without OTEL_EXPORTER_OTLP_ENDPOINT: nothing of OpenTelemetry is loaded', async () => {
    const ctx = await createTestApp({ database, config: { otlpEndpoint: null } });
    try {
      const user = await registerUser(ctx.app);
      (await apiClient(ctx.app, user)(todosApi.list)).expectBody(200);
    } finally {
      await ctx.close();
    }
    expect(resolved.filter((url) => /@opentelemetry|plugins\/tracing/.test(url))).toEqual([]);
    expect(received).toEqual([]);
  });

  it('send a span per request (route, method, status) and per query (text without values)', async () => {
    const ctx = await createTestApp({
      database,
      config: {
        // Read as the server reads it, trailing slash and all.
        otlpEndpoint: loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `${endpoint}/` }).otlpEndpoint,
      },
    });
    const secretTitle = 'Buy a present for Alice 4711';
    let todoId: number;
    try {
      const user = await registerUser(ctx.app);
      const todo = (
        await apiClient(ctx.app, user)(todosApi.create, { body: { title: secretTitle } })
      ).expectBody(201);
      todoId = todo.id;
      (await apiClient(ctx.app, user)(todosApi.get, { params: { id: todo.id } })).expectBody(200);
    } finally {
      // Closing flushes the spans still waiting for their batch.
      await ctx.close();
    }
    // The mechanism that saw nothing before sees OpenTelemetry now.
    expect(resolved.some((url) => url.includes('@opentelemetry/sdk-trace'))).toBe(true);

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((batch) => batch.contentType.startsWith('application/json'))).toBe(true);
    const spans = received.flatMap((batch) => batch.spans);
    const read = spans.find((span) => span.name === 'GET /api/todos/:id');
    expect(read).toBeDefined();
    if (!read) return;
    expect(attribute(read, 'http.request.method')).toBe('GET');
    expect(attribute(read, 'http.route')).toBe('/api/todos/:id');
    expect(attribute(read, 'http.response.status_code')).toBe(200);
    const queries = spans.filter((span) => span.parentSpanId === read.spanId);
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.traceId).toBe(read.traceId);
      expect(String(attribute(query, 'db.query.text'))).toMatch(
        /^\s*(select|insert|update|delete|with)/i,
      );
    }
    const created = spans.find((span) => span.name === 'POST /api/todos');
    expect(created && attribute(created, 'http.response.status_code')).toBe(201);
    const insert = spans.find(
      (span) =>
        span.parentSpanId === created?.spanId &&
        /insert into "todos"/i.test(String(attribute(span, 'db.query.text'))),
    );
    expect(insert).toBeDefined();
    // No value: not the title, not the id in the path, not a password or a cookie.
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain(secretTitle);
    expect(everything).not.toContain(`/api/todos/${todoId}`);
    expect(everything).not.toMatch(/password"|cookie|authorization/i);
  });
});
