import { accountApi, authApi, calendarApi, groupsApi, todosApi, tokensApi } from '@tally/contract';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import {
  as,
  createTestApp,
  refreshCookieOf,
  registerUser,
  type TestContext,
  type TestUser,
  uniqueName,
} from '../test/helpers.js';
import { davBodies, davCredentials, davMethods, davRoutePaths, davSender } from '../test/caldav.js';
import { type LocalGoogleIdp, startLocalGoogleIdp } from '../test/local-google-idp.js';
import {
  type LocalOidcProvider,
  oidcSettingsFor,
  startLocalOidcProvider,
} from '../test/local-oidc-provider.js';
import {
  fillPath,
  hasParams,
  idsOfUser,
  invariantViolations,
  type JsonSchema,
  routeCollector,
  type RouteEntry,
  snapshotUser,
} from '../test/security.js';

/**
 * Access-control sweep driven by the route table: every route Fastify registers, with every
 * method, is tried by user B with user A's ids and data. A route added later is swept without
 * anyone touching this file.
 */

const CLIENT_ID = 'tally-sweep.apps.googleusercontent.com';
const ALICE_TAG = 'ALICE-SECRET-tag';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const collector = routeCollector();
let idp: LocalGoogleIdp;
/** Single sign-on is on, so its routes answer as in production (not 503). */
let oidcIdp: LocalOidcProvider;
const PUBLIC_URL = 'http://localhost:3000';
let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let aliceIds: number[];
let aliceGroupIds: number[];

beforeAll(async () => {
  idp = await startLocalGoogleIdp(CLIENT_ID);
  oidcIdp = await startLocalOidcProvider({ publicUrl: PUBLIC_URL });
  ctx = await createTestApp({
    onRoute: collector.onRoute,
    config: {
      googleClientId: CLIENT_ID,
      googleJwksUrl: idp.jwksUrl,
      googleIssuers: ['https://accounts.google.com'],
      publicUrl: PUBLIC_URL,
      oidc: oidcSettingsFor(oidcIdp),
    },
  });
  ctx.clock.current = Date.now();
  // The first account is the operator, whose admin page reaches every account by design
  // (admin/admin.test.ts): the sweep is between two accounts that are not.
  await registerUser(ctx.app, uniqueName('operator'));
  alice = await registerUser(ctx.app, uniqueName('alice'));
  bob = await registerUser(ctx.app, uniqueName('bob'));
  const asAlice = apiClient(ctx.app, alice);
  const asBob = apiClient(ctx.app, bob);
  for (const name of ['ALICE-SECRET-home', 'ALICE-SECRET-work']) {
    await asAlice(groupsApi.create, { body: { name, color: '#EF4444' } });
  }
  aliceGroupIds = (
    await ctx.database.handle.db
      .selectFrom('todo_groups')
      .select('id')
      .where('user_id', '=', alice.id)
      .execute()
  ).map((g) => g.id);
  for (const [i, groupId] of [aliceGroupIds[0], null, aliceGroupIds[1]].entries()) {
    const todo = await asAlice(todosApi.create, {
      // A's tag: B's /api/tags/{name} calls name it and must get 404.
      body: {
        title: `ALICE-SECRET-todo-${i}`,
        description: 'ALICE-SECRET-notes',
        groupId,
        tags: [ALICE_TAG],
      },
    });
    if (i === 1) {
      const { id } = todo.json<{ id: number }>();
      await asAlice(todosApi.update, {
        params: { id },
        body: { title: 'ALICE-SECRET-done', description: null, groupId: null, completed: true },
      });
    }
  }
  await asBob(groupsApi.create, { body: { name: 'bob', color: '#3B82F6' } });
  await asBob(todosApi.create, { body: { title: 'bob todo' } });
  // A personal API token and a calendar feed of A's: B can neither revoke nor read them.
  await asAlice(tokensApi.create, {
    body: { name: 'ALICE-SECRET-token', scope: 'read', expiresInDays: null },
  });
  await asAlice(calendarApi.regenerate);
  // The ids A owns in any table and B owns in none: on every :param route they must be 404.
  const bobIds = new Set(await idsOfUser(ctx.database.handle.db, bob.id));
  aliceIds = (await idsOfUser(ctx.database.handle.db, alice.id)).filter((id) => !bobIds.has(id));
});

afterAll(async () => {
  await ctx.close();
  await idp.close();

  await oidcIdp.close();
});

/** A body the route's schema accepts, filled with A's identity and A's ids wherever it can. */
async function attackBodies(schema: JsonSchema): Promise<unknown[]> {
  const props = schema.properties ?? {};
  const googleToken = await idp.issue({ sub: uniqueName('google-bob'), email: alice.email });
  const base: Record<string, unknown> = {};
  const variants: Record<string, unknown>[] = [];
  for (const [name, prop] of Object.entries(props)) {
    const branches = prop.anyOf ?? [prop];
    const real = branches.find((b) => b.type !== 'null') ?? branches[0] ?? {};
    if (real.const !== undefined) base[name] = real.const;
    else if (real.type === 'integer') {
      if (branches.some((b) => b.type === 'null')) base[name] = null;
      // Every A id in this field, e.g. groupId = one of A's groups.
      for (const id of aliceGroupIds.concat(aliceIds.slice(0, 3))) variants.push({ [name]: id });
    } else if (real.type === 'boolean') base[name] = true;
    else if (real.type === 'array') base[name] = [];
    else if (name === 'username') base[name] = alice.username;
    else if (name === 'email') base[name] = alice.email;
    else if (name === 'password') base[name] = 'wrong password';
    else if (name === 'token') base[name] = googleToken;
    else if (name === 'name') base[name] = `bob-attempt-${uniqueName()}`;
    // Fields with a format of their own get a value of it, so the schema lets the body through.
    else if (real.pattern?.includes('\\d{4}')) base[name] = '2026-12-01';
    else if (real.pattern?.includes(':[0-5]')) base[name] = '09:00';
    else if (real.type === 'object') base[name] = null;
    else base[name] = 'bob attempt';
  }
  return [base, ...variants.map((v) => ({ ...base, ...v }))];
}

function validQuery(schema?: JsonSchema): string {
  const out: string[] = [];
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    if (prop.type === 'integer') out.push(`${name}=7`);
    else if (name === 'startDate') out.push(`${name}=2026-01-01`);
    else out.push(`${name}=${new Date().toISOString().slice(0, 10)}`);
  }
  return out.length ? `?${out.join('&')}` : '';
}

const leaksAlice = (body: string) =>
  body.includes('ALICE') || body.includes(alice.email) || body.includes(alice.username);

interface Attempt {
  entry: RouteEntry;
  url: string;
  body?: unknown;
  response: LightMyRequestResponse;
}

describe('access-control sweep over the route table', () => {
  it('gives B a 404 or only B’s data on every route and method, and never changes A’s rows', async () => {
    const db = ctx.database.handle.db;
    const entries = collector.entries().filter((e) => e.url.startsWith('/api') && !e.stream);
    const urls = [...new Set(entries.map((e) => e.url))];
    // The table is what Fastify registered: the known API must be in it.
    for (const known of ['/api/todos/:id', '/api/todo-groups/:id', '/api/statistics/since']) {
      expect(urls).toContain(known);
    }
    const aliceBefore = await snapshotUser(db, alice.id);
    const attempts: Attempt[] = [];
    const problems: string[] = [];
    const getsBefore = new Map<string, string>();

    const send = async (entry: RouteEntry, url: string, body?: unknown) => {
      // A fresh session for B on every attempt, so refresh/logout act on B's own family.
      const cookie = entry.public ? refreshCookieOf(await loginBob()) : undefined;
      const response = await ctx.app.inject({
        method: entry.method as 'GET',
        url,
        headers: {
          authorization: `Bearer ${bob.token}`,
          ...(cookie ? { cookie } : {}),
        },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
      attempts.push({ entry, url, body, response });
      const what = `${entry.method} ${url} ${body === undefined ? '' : JSON.stringify(body)}`;
      // Without e-mail configured (as here), asking for a verification mail is a 503 by design.
      const unavailable =
        entry.url === accountApi.resendVerification.path && response.statusCode === 503;
      if (response.statusCode >= 500 && !unavailable) {
        problems.push(`${what}: ${response.statusCode}`);
      }
      if (leaksAlice(response.body)) problems.push(`${what}: answer holds A's data`);
      const token = (() => {
        try {
          return response.json<{ accessToken?: string }>().accessToken;
        } catch {
          return undefined;
        }
      })();
      if (token && decodeJwt(token).sub !== bob.username) {
        problems.push(`${what}: issued a token for ${String(decodeJwt(token).sub)}`);
      }
      if ((await snapshotUser(db, alice.id)) !== aliceBefore) {
        problems.push(`${what}: changed A's rows`);
      }
      const broken = await invariantViolations(db);
      if (broken.length) problems.push(`${what}: ${broken.join(', ')}`);
      return response;
    };

    for (const entry of entries) {
      if (entry.url.includes('*')) {
        // Static files of the docs UI: public, no ids, no user data.
        const response = await send(entry, entry.url.replace('*', 'index.css'));
        expect(response.statusCode).toBeLessThan(500);
        continue;
      }
      const bodies = entry.body ? await attackBodies(entry.body) : [undefined];
      const query = validQuery(entry.querystring);
      if (hasParams(entry.url)) {
        // Rows B made during the sweep (a token, a todo) may share a number with one of A's:
        // acting on B's own row is fine (A's rows are checked apart), so those ids are left out.
        const bobsNow = new Set(await idsOfUser(db, bob.id));
        for (const id of aliceIds.filter((aliceId) => !bobsNow.has(aliceId))) {
          for (const body of bodies) {
            const path = fillPath(entry.url, { id, name: ALICE_TAG });
            const response = await send(entry, path + query, body);
            // The admin calls take any account's id by design, and refuse B outright (403):
            // only an operator reaches them (admin/admin.test.ts sweeps them).
            const refused = entry.url.startsWith('/api/admin/') && response.statusCode === 403;
            if (response.statusCode !== 404 && !refused) {
              problems.push(
                `${entry.method} ${entry.url} with A's id ${id}: ${response.statusCode}`,
              );
            }
          }
        }
        continue;
      }
      for (const body of bodies) {
        const response = await send(entry, entry.url + query, body);
        // A Google nonce is fresh for every browser (B sends no nonce cookie): nothing to compare.
        const random = entry.url === authApi.googleNonce.path;
        if (
          entry.method === 'GET' &&
          response.statusCode === 200 &&
          body === undefined &&
          !random
        ) {
          getsBefore.set(entry.url + query, response.body);
        }
        const intoAlicesGroup =
          typeof body === 'object' &&
          body !== null &&
          aliceGroupIds.includes((body as { groupId?: number }).groupId ?? -1);
        if (intoAlicesGroup && response.statusCode < 400) {
          problems.push(`${entry.method} ${entry.url} put B's todo into A's group`);
        }
      }
    }

    // Methods a path does not register: 404, and nothing changes. A fixed path that another
    // route's pattern also matches (PUT /api/todos/export.csv is PUT /api/todos/:id with the
    // id "export.csv") gets that route's 400 for the bad parameter instead.
    let unregistered = 0;
    const patternOf = (url: string) =>
      new RegExp(`^${url.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`);
    for (const url of urls.filter((u) => !u.includes('*'))) {
      const registered = new Set(entries.filter((e) => e.url === url).map((e) => e.method));
      for (const method of METHODS.filter((m) => !registered.has(m))) {
        const id = aliceIds[0] ?? 1;
        const response = await send(
          { method, url, public: false, stream: false },
          fillPath(url, { id, name: ALICE_TAG }),
        );
        unregistered += 1;
        const parametric = entries.some(
          (e) =>
            e.method === method &&
            e.url !== url &&
            e.url.includes(':') &&
            patternOf(e.url).test(url),
        );
        const expected = parametric && !url.includes(':') ? 400 : 404;
        if (response.statusCode !== expected) {
          problems.push(`${method} ${url}: ${response.statusCode}`);
        }
      }
    }

    // B's answers hold only B's data: A acting again changes none of them.
    for (const url of getsBefore.keys()) {
      getsBefore.set(url, (await as(ctx.app, bob)({ method: 'GET', url })).body);
    }
    const asAlice = apiClient(ctx.app, alice);
    await asAlice(todosApi.create, { body: { title: 'ALICE-SECRET-later' } });
    await asAlice(groupsApi.create, { body: { name: 'ALICE-SECRET-later', color: '#10B981' } });
    for (const [url, before] of getsBefore) {
      const after = await as(ctx.app, bob)({ method: 'GET', url });
      if (after.body !== before) problems.push(`GET ${url} changed when A acted`);
    }

    expect(problems).toEqual([]);
    const pairs = new Set(entries.map((e) => `${e.method} ${e.url}`));
    const privatePairs = entries.filter((e) => !e.public).length;
    console.info(
      `[access sweep] ${pairs.size} route×method pairs (${privatePairs} private, ${
        pairs.size - privatePairs
      } public) on ${urls.length} paths + ${unregistered} unregistered method×path pairs; ` +
        `${attempts.length} requests with ${aliceIds.length} of A's ids; A's rows unchanged`,
    );
    // Every route and method, each followed by a snapshot of A's rows: the default 20 s is too
    // tight on PostgreSQL on a busy machine now that the sign-in and task-model routes came.
  }, 120_000);
});

describe('access-control sweep over CalDAV', () => {
  it('answers B 404 on every path of A’s for every /dav method, 401 without credentials', async () => {
    const db = ctx.database.handle.db;
    const methods = davMethods(collector.entries());
    expect(methods).toEqual(expect.arrayContaining(['PROPFIND', 'REPORT', 'PUT', 'MKCALENDAR']));
    const home = `/dav/calendars/${alice.id}/`;
    const todos = await db
      .selectFrom('todos')
      .select(['id', 'group_id'])
      .where('user_id', '=', alice.id)
      .execute();
    const calendars = [
      `${home}todos/`,
      ...aliceGroupIds.map((id) => `${home}group-${id}/`),
      `${home}no-such-calendar/`,
    ];
    const resources = todos.map(
      (t) => `${home}${t.group_id === null ? 'todos' : `group-${t.group_id}`}/tally-${t.id}.ics`,
    );
    // Each /dav route of the table, filled with A's calendars and todos.
    const values = {
      owner: [alice.id],
      calendar: ['todos', ...aliceGroupIds.map((id) => `group-${id}`), 'no-such-calendar'],
      name: todos.map((t) => `tally-${t.id}.ics`),
      '*': [`calendars/${alice.id}/todos/tally-${todos[0]?.id ?? 0}.ics/more`],
    };
    const pathsOf = (method: string) =>
      method === 'OPTIONS'
        ? [`/dav/principals/${alice.id}/`, home, ...calendars, ...resources]
        : davRoutePaths(collector.entries(), method, values).filter(
            // The root is everyone's: B is answered there, as anyone signed in is.
            (path) => path !== '/dav',
          );
    const bobDav = await davCredentials(ctx.app, bob);
    const bodies = davBodies(resources);
    const send = davSender(ctx.app, ctx.clock);
    const aliceBefore = await snapshotUser(db, alice.id);
    const problems: string[] = [];
    let sent = 0;
    let swept = 0;
    for (const method of methods) {
      const list = bodies[method];
      if (!list) {
        problems.push(`${method}: no CalDAV bodies to sweep it with (test/caldav.ts)`);
        continue;
      }
      const paths = pathsOf(method);
      if (paths.length === 0) problems.push(`${method}: no /dav path to sweep it on`);
      swept += paths.length;
      for (const path of paths) {
        for (const body of list) {
          const what = `${method} ${path} ${body?.slice(0, 40) ?? ''}`;
          const signedIn = await send(method, path, body, {
            authorization: bobDav.basic,
            depth: '1',
          });
          const anonymous = await send(method, path, body, { depth: '1' });
          sent += 2;
          // OPTIONS names what the server speaks, to anyone: the same for every path.
          const [expected, expectedAnonymous] = method === 'OPTIONS' ? [200, 200] : [404, 401];
          if (signedIn.statusCode !== expected) problems.push(`${what}: ${signedIn.statusCode}`);
          if (anonymous.statusCode !== expectedAnonymous) {
            problems.push(`${what} without credentials: ${anonymous.statusCode}`);
          }
          if (leaksAlice(signedIn.body) || leaksAlice(anonymous.body)) {
            problems.push(`${what}: answer holds A's data`);
          }
        }
      }
      if ((await snapshotUser(db, alice.id)) !== aliceBefore) {
        problems.push(`${method}: changed A's rows`);
      }
    }
    expect(problems).toEqual([]);
    console.info(
      `[access sweep] CalDAV: ${methods.length} methods on ${swept} paths of A's, ${sent} requests`,
    );
  }, 120_000);
});

async function loginBob() {
  return apiClient(ctx.app, null)(authApi.login, {
    body: { username: bob.username, password: bob.password },
  });
}
