import { systemApi, todosApi } from '@tally/contract';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  createTestDatabase,
  registerUser,
  type TestContext,
} from '../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    config: { googleClientId: 'client-123.apps.googleusercontent.com' },
  });
});
afterAll(async () => ctx.close());

describe('public endpoints', () => {
  it('GET /api/health answers 200 when the database answers', async () => {
    const response = await apiClient(ctx.app, null)(systemApi.health);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/config gives the browser only its public settings', async () => {
    const response = await apiClient(ctx.app, null)(systemApi.config);
    expect(response.json()).toEqual({
      googleClientId: 'client-123.apps.googleusercontent.com',
      registration: 'open',
      passwordResetByEmail: false,
      setupTokenRequired: false,
      authProxy: false,
      oidc: null,
      passwordSignIn: true,
    });
  });

  it('serves the OpenAPI document and its browsable UI at /api/docs', async () => {
    const spec = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    const paths = Object.keys(spec.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/auth/register',
        '/api/auth/login',
        '/api/auth/refresh',
        '/api/auth/logout',
        '/api/todos',
        '/api/todos/{id}',
        '/api/todo-groups',
        '/api/todo-groups/{id}',
        '/api/statistics/total',
        '/api/statistics/recent',
        '/api/statistics/range',
        '/api/statistics/since',
        '/api/config',
        '/api/health',
      ]),
    );
    const ui = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });

  it("serves the docs UI's files as a static file server does", async () => {
    const url = '/api/docs/static/index.css';
    const file = await ctx.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(file.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const head = await ctx.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(file.rawPayload.length));
    const etag = file.headers.etag;
    expect(etag).toBeTruthy();
    const unchanged = await ctx.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(etag) },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    const redirect = await ctx.app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/api/docs/');
    expect(redirect.headers['content-type']).toBeUndefined();
    const missing = await ctx.app.inject({ method: 'GET', url: '/api/docs/static/missing.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Not found' });
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    for (const url of ['/api/nope', '/api/todos/1/extra', '/api']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found' });
    }
  });
});

describe('headers', () => {
  it('sets security headers on answers and errors, and never caches the API', async () => {
    const user = await registerUser(ctx.app);
    const answers = [
      await apiClient(ctx.app, user)(todosApi.list),
      await apiClient(ctx.app, null)(todosApi.list),
      await ctx.app.inject({ method: 'GET', url: '/api/nope' }),
    ];
    for (const response of answers) {
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self' https://accounts.google.com/gsi/client");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('the database', () => {
  it('reports 503 from /api/health and from calls when the database is gone', async () => {
    const broken = await createTestApp();
    const user = await registerUser(broken.app);
    await broken.database.handle.db.destroy();
    const health = await apiClient(broken.app, null)(systemApi.health);
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ error: 'The database is not answering' });
    const call = await apiClient(broken.app, user)(todosApi.list);
    expect(call.statusCode).toBeGreaterThanOrEqual(500);
    expect(call.body).not.toMatch(/select|sqlite|postgres|at .*\.js/i);
    await broken.app.close();
  });

  it('keeps data and tokens valid across a restart', async () => {
    const database = await createTestDatabase();
    const first = await createTestApp({ database });
    const user = await registerUser(first.app);
    await apiClient(first.app, user)(todosApi.create, { body: { title: 'Persisted' } });
    await first.app.close();
    await database.handle.db.destroy();

    const reopened = { ...database, handle: database.reconnect() };
    const second = await createTestApp({ database: reopened, clock: first.clock });
    const todos = await apiClient(second.app, user)(todosApi.list);
    expect(todos.statusCode).toBe(200);
    expect(todos.json()).toEqual([expect.objectContaining({ title: 'Persisted' })]);
    await second.app.close();
    await reopened.drop();
  });
});

describe('the web app', () => {
  it('serves index.html for client routes, with no caching, and hashed assets for a year', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'tally-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Tally</title>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Tally"}');
    const web = await createTestApp({ config: { webDistDir: dist } });
    try {
      // The service worker and the manifest: checked again at every visit, so a deploy is seen.
      const worker = await web.app.inject({ method: 'GET', url: '/sw.js' });
      expect(worker.headers['cache-control']).toBe('no-cache');
      expect(worker.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      const manifest = await web.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
      expect(manifest.headers['cache-control']).toBe('no-cache');
      expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
      for (const url of ['/', '/todos', '/statistics?x=1']) {
        const page = await web.app.inject({ method: 'GET', url });
        expect(page.statusCode, url).toBe(200);
        expect(page.body).toContain('<title>Tally</title>');
        expect(page.headers['cache-control']).toBe('no-cache');
      }
      const asset = await web.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await web.app.inject({ method: 'GET', url: '/api/missing' })).statusCode).toBe(404);
    } finally {
      await web.close();
    }
  });
});

describe('over a real socket', () => {
  it('serves the API on a port', async () => {
    const live = await createTestApp();
    try {
      const address = await live.app.listen({ port: 0, host: '127.0.0.1' });
      const health = await fetch(`${address}/api/health`);
      expect(health.status).toBe(200);
      const register = await fetch(`${address}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: 'socket_user',
          email: 'socket@example.com',
          password: 'long enough',
        }),
      });
      expect(register.status).toBe(201);
      expect(register.headers.get('set-cookie')).toMatch(
        /tally_refresh=.*HttpOnly.*SameSite=Strict/i,
      );
      const { accessToken } = (await register.json()) as { accessToken: string };
      const todos = await fetch(`${address}/api/todos`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(await todos.json()).toEqual([]);
    } finally {
      await live.close();
    }
  });
});
