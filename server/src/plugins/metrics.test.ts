import { todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { apiClient } from '../test/api-client.js';
import { createTestApp, pgUrl, registerUser, type TestContext } from '../test/helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics without METRICS_TOKEN', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ config: { metricsToken: null } });
  });
  afterAll(() => ctx.close());

  it('answers 404, even with a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found' });
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let ctx: TestContext;
  const scrape = (authorization?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: authorization === undefined ? {} : { authorization },
    });

  beforeAll(async () => {
    ctx = await createTestApp({ config: { metricsToken: TOKEN } });
  });
  afterAll(() => ctx.close());

  it('answers 401 without the token or with a wrong one, and says nothing else', async () => {
    for (const header of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const response = await scrape(header);
      expect(response.statusCode, String(header)).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.body).not.toContain('tally_');
    }
  });

  it('counts requests by route pattern, not by raw URL, with their durations', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    await call(todosApi.list);
    await call(todosApi.remove, { params: { id: 123456 } });
    await call(todosApi.remove, { params: { id: 654321 } });
    await ctx.app.inject({ method: 'GET', url: '/api/nothing-here' });

    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toContain(
      'tally_http_request_duration_seconds_count{method="DELETE",route="/api/todos/:id",status_code="404"} 2',
    );
    expect(text).toContain(
      'tally_http_request_duration_seconds_count{method="GET",route="/api/todos",status_code="200"} 1',
    );
    expect(text).toContain(
      'tally_http_request_duration_seconds_count{method="POST",route="/api/auth/register",status_code="201"} 1',
    );
    expect(text).toMatch(
      /tally_http_request_duration_seconds_count\{method="GET",route="\(unmatched\)",status_code="404"\} 1/,
    );
    expect(text).not.toContain('123456');
    expect(text).toMatch(/tally_http_request_duration_seconds_bucket\{le="0.005",/);
  });

  it('reports the event loop, process memory and the database', async () => {
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toMatch(/^tally_nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^tally_nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^tally_process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^tally_nodejs_heap_size_used_bytes \d+/m);
    if (pgUrl) {
      expect(text).toMatch(/^tally_db_pool_connections\{state="total"\} [1-9]/m);
      expect(text).toMatch(/^tally_db_pool_connections\{state="idle"\} \d+/m);
      expect(text).toMatch(/^tally_db_pool_connections\{state="waiting"\} 0/m);
    } else {
      expect(text).toMatch(/^tally_db_statement_cache_entries [1-9]\d*/m);
      expect(text).toMatch(/^tally_db_file_bytes\{file="database"\} [1-9]\d*/m);
      expect(text).toMatch(/^tally_db_file_bytes\{file="wal"\} \d+/m);
    }
  });
});

describe('METRICS_TOKEN', () => {
  it('must be at least 16 characters without spaces', () => {
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({}).metricsToken).toBeNull();
    for (const bad of ['short', 'sixteen chars ok but spaced']) {
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(/METRICS_TOKEN must be at least/);
    }
  });
});
