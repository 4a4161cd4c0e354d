import { authApi, systemApi, todosApi } from '@tally/contract';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  as,
  createTestApp,
  createTestDatabase,
  registerUser,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';
import { fillPath, routeCollector } from '../test/security.js';

/** An error answer's keys besides the code, field and limit that may stand beside its sentence. */
const errorKeys = (response: LightMyRequestResponse) =>
  Object.keys(response.json<object>()).filter((key) => !['code', 'field', 'limit'].includes(key));

/**
 * Security headers on every kind of answer, errors included, plus cookie flags and what a forced
 * database failure lets out.
 */

let ctx: TestContext;
let user: TestUser;
const routes = routeCollector();
let distDir: string;

beforeAll(async () => {
  distDir = mkdtempSync(path.join(tmpdir(), 'tally-dist-'));
  mkdirSync(path.join(distDir, 'assets'));
  writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Tally</title>');
  writeFileSync(path.join(distDir, 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(path.join(distDir, 'assets', 'app-1234.js.map'), '{"sources":["secret.ts"]}');
  ctx = await createTestApp({
    config: { webDistDir: distDir, authRateLimitPerMinute: 5, trustProxy: 1 },
    onRoute: routes.onRoute,
  });
  user = await registerUser(ctx.app);
});
afterAll(async () => {
  await ctx.close();
  rmSync(distDir, { recursive: true, force: true });
});

function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const csp = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

/** The headers every answer must carry, whatever its status. */
function checkCommon(response: LightMyRequestResponse, label: string) {
  const csp = directives(response);
  const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
  expect(scripts.length, `${label}: script-src`).toBeGreaterThan(0);
  expect(scripts, `${label}: no inline scripts`).not.toContain("'unsafe-inline'");
  expect(scripts, `${label}: no eval`).not.toContain("'unsafe-eval'");
  expect(csp.get('object-src'), `${label}: object-src`).toEqual(["'none'"]);
  expect(csp.get('base-uri'), `${label}: base-uri`).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), `${label}: frame-ancestors`).toEqual(["'none'"]);
  // One framing policy, not a second one that says otherwise.
  expect(response.headers['x-frame-options'], `${label}: x-frame-options`).toBeUndefined();
  expect(response.headers['x-content-type-options'], label).toBe('nosniff');
  expect(response.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
  expect(response.headers['x-powered-by'], label).toBeUndefined();
  expect(response.headers.server, label).toBeUndefined();
}

describe('headers on every answer', () => {
  it('carries CSP, nosniff, Referrer-Policy and no-store on API answers of every status', async () => {
    const call = apiClient(ctx.app, user);
    const todo = await call(todosApi.create, { body: { title: 'h' } });
    const answers: [number, LightMyRequestResponse][] = [
      [200, await call(todosApi.list)],
      [200, await as(ctx.app, user)({ method: 'HEAD', url: todosApi.list.path })],
      [201, todo],
      [204, await call(todosApi.remove, { params: { id: todo.json<{ id: number }>().id } })],
      [400, await call(todosApi.create, { body: { title: '' } })],
      [401, await apiClient(ctx.app, null)(todosApi.list)],
      [400, await call.unchecked(todosApi.remove, { params: { id: '%_%' } })],
      [404, await as(ctx.app, user)({ method: 'GET', url: '/api/nope' })],
      [
        404,
        await call(todosApi.update, {
          params: { id: 999999 },
          body: { title: 'x', completed: false },
        }),
      ],
      [
        413,
        await call.unchecked(todosApi.create, {
          body: `{"title":"${'x'.repeat(70_000)}"}`,
          headers: { 'content-type': 'application/json' },
        }),
      ],
      [
        415,
        await call.unchecked(todosApi.create, {
          body: 'x',
          headers: { 'content-type': 'text/plain' },
        }),
      ],
    ];
    let limited: LightMyRequestResponse | undefined;
    for (let i = 0; i < 10 && limited?.statusCode !== 429; i++) {
      limited = await apiClient(ctx.app, null)(authApi.login, {
        body: { username: 'nobody', password: 'whatever1' },
        remoteAddress: '10.3.0.1',
      });
    }
    answers.push([429, limited as LightMyRequestResponse]);
    for (const [status, response] of answers) {
      const label = `${status} ${response.raw.req.method} ${response.raw.req.url}`;
      expect(response.statusCode, label).toBe(status);
      checkCommon(response, label);
      expect(response.headers['cache-control'], label).toBe('no-store');
      // The sentence, perhaps with its code, field and limit (decision 178), and nothing else.
      if (status >= 400) expect(errorKeys(response), label).toEqual(['error']);
    }
  });

  it("answers every signed-in GET of the route table with no-store (a user's data is never cached)", async () => {
    const reads = routes
      .entries()
      .filter((r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.public && !r.stream);
    expect(reads.length).toBeGreaterThan(10);
    for (const route of reads) {
      const url = fillPath(route.url, { id: 1 });
      const response = await as(ctx.app, user)({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('carries them on the web app, its fallback and the API docs too', async () => {
    for (const url of [
      '/',
      '/todos',
      '/assets/app-1234.js',
      '/api/docs/',
      '/api/docs/json',
      '/api/docs/static/index.css',
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(400);
      checkCommon(response, url);
    }
  });

  it('serves no source map, under any spelling', async () => {
    for (const url of [
      '/assets/app-1234.js.map',
      '/assets/app-1234.js.MAP',
      '/assets/app-1234.js.map?v=1',
      '/assets/missing.js.map',
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('secret.ts');
      expect(response.json(), url).toEqual({ error: 'Not found' });
    }
  });

  it('sends HSTS behind an HTTPS proxy (TRUST_PROXY and X-Forwarded-Proto: https)', async () => {
    const response = await apiClient(ctx.app, null)(systemApi.health, {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
  });
});

describe('the refresh cookie', () => {
  const register = (headers: Record<string, string>) => {
    const name = `c${Math.random().toString(36).slice(2, 10)}`;
    return apiClient(ctx.app, null)(authApi.register, {
      body: { username: name, email: `${name}@example.com`, password: 'long enough' },
      headers,
      remoteAddress: `10.4.0.${Math.floor(Math.random() * 250)}`,
    });
  };
  /** The refresh cookie among those a sign-in sets (the device cookie comes with it). */
  const cookieOf = (response: LightMyRequestResponse) =>
    [response.headers['set-cookie'] ?? []]
      .flat()
      .find((cookie) => /^(__Host-)?tally_refresh=/.test(cookie)) ?? '';

  it('is httpOnly and SameSite=Strict, Secure off localhost', async () => {
    const remote = cookieOf(await register({ host: 'tally.example.com' }));
    expect(remote).toMatch(/HttpOnly/);
    expect(remote).toMatch(/SameSite=Strict/);
    expect(remote).toMatch(/^__Host-tally_refresh=/);
    expect(remote).toMatch(/Secure/);
    expect(remote).toMatch(/Path=\/;/);
    expect(remote).not.toMatch(/Domain=/i);
    const local = cookieOf(await register({ host: 'localhost:3000' }));
    expect(local).toMatch(/^tally_refresh=/);
    expect(local).toMatch(/HttpOnly; SameSite=Strict/);
    expect(local).toMatch(/Path=\/api\/auth/);
    expect(local).not.toMatch(/Secure/);
  });

  it('is Secure whenever the client came over HTTPS, even to a proxy on localhost', async () => {
    const proxied = cookieOf(
      await register({ host: 'localhost:3000', 'x-forwarded-proto': 'https' }),
    );
    expect(proxied).toMatch(/^__Host-tally_refresh=.*Path=\/;.*Secure/);
  });
});

describe('a forced database failure', () => {
  const leaks =
    /select|insert|from |table|sqlite|postgres|relation|syntax|\/work|\/tmp|node_modules|\.js|\.ts|at \w+ \(|stack/i;

  it('gives a 500 that names no SQL, table, path or stack, with the usual headers', async () => {
    // A database of its own: a table renamed beside other files' migrations fails them.
    const database = await createTestDatabase({ ownDatabase: true });
    const broken = await createTestApp({ database });
    try {
      const victim = await registerUser(broken.app);
      // Renamed rather than dropped: other tables' foreign keys point at it.
      await sql`alter table todos rename to todos_gone`.execute(broken.database.handle.db);
      const response = await apiClient(broken.app, victim)(todosApi.list);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'Internal server error', code: 'internal_error' });
      expect(response.body).not.toMatch(leaks);
      checkCommon(response, '500');
      expect(response.headers['cache-control']).toBe('no-store');
    } finally {
      await broken.close();
      await database.drop();
    }
  });

  it('gives a 5xx without internals when the database is gone', async () => {
    const broken = await createTestApp();
    const victim = await registerUser(broken.app);
    await broken.database.handle.db.destroy();
    const call = apiClient(broken.app, victim);
    for (const [url, send] of [
      [todosApi.list.path, () => call(todosApi.list)],
      [todosApi.create.path, () => call(todosApi.create, { body: { title: 'x' } })],
      [systemApi.health.path, () => call(systemApi.health)],
    ] as const) {
      const response = await send();
      expect(response.statusCode, url).toBeGreaterThanOrEqual(500);
      expect(errorKeys(response), url).toEqual(['error']);
      expect(response.body, url).not.toMatch(leaks);
      checkCommon(response, `${response.statusCode} ${url}`);
    }
    await broken.app.close();
  });
});
