import { contract, type Endpoint, isSessionOnlyPath } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers.js';
import { routeCollector } from '../test/security.js';

/**
 * The server serves exactly the calls contract/ describes: same methods, paths and public flags,
 * and the OpenAPI document says which calls need a bearer token.
 */

const collector = routeCollector();
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ onRoute: collector.onRoute });
});
afterAll(() => ctx.close());

const endpoints: Endpoint[] = Object.values(contract).flatMap((calls) =>
  Object.values(calls as Record<string, Endpoint>),
);
const key = (method: string, path: string) => `${method} ${path}`;

describe('the contract', () => {
  it('describes every /api route the server registers, and nothing else', () => {
    const served = collector
      .entries()
      .filter((route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/docs'))
      .filter((route) => route.method !== 'HEAD')
      .map((route) => ({ key: key(route.method, route.url), public: route.public }));
    const described = endpoints.map((e) => ({
      key: key(e.method, e.path),
      public: e.public === true,
    }));
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    expect(served.sort(byKey)).toEqual(described.sort(byKey));
  });

  it('marks exactly the public calls as needing no bearer token in /api/docs', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      security: unknown[];
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    expect(document.security).toEqual([{ bearerAuth: [] }, { personalToken: [] }]);
    for (const endpoint of endpoints) {
      const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      // /api/account takes the session's token only, not a personal API token.
      const sessionOnly = isSessionOnlyPath(endpoint.path) ? [{ bearerAuth: [] }] : undefined;
      expect(operation?.security, `${endpoint.method} ${endpoint.path}`).toEqual(
        endpoint.public ? [] : sessionOnly,
      );
    }
  });

  it('shows the 403 reauthentication_required of every call that needs a recent proof of identity', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<
        string,
        Record<string, { description?: string; responses: Record<string, unknown> }>
      >;
    }>();
    const guarded = endpoints.filter((endpoint) => endpoint.recentAuth);
    expect(guarded.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
      'DELETE /api/account/google',
      'DELETE /api/account/oidc',
      'DELETE /api/account/passkeys/:id',
      'DELETE /api/account/two-factor',
      'POST /api/account/calendar',
      'POST /api/account/google',
      'POST /api/account/oidc',
      'POST /api/account/passkeys',
      'POST /api/account/passkeys/options',
      'POST /api/account/tokens',
      'POST /api/account/two-factor',
      'POST /api/account/two-factor/setup',
    ]);
    for (const endpoint of guarded) {
      const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[endpoint.method.toLowerCase()];
      expect(operation?.description).toMatch(/403 with code reauthentication_required/);
      expect(JSON.stringify(operation?.responses['403'])).toMatch(/reauthentication_required/);
    }
  });
});
