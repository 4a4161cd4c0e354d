import { filtersApi, groupsApi, SAVED_FILTERS_MAX, todosApi, tokensApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const body = { name: 'Work today', color: '#3B82F6', query: '#Work & today' } as const;

describe('saved filters', () => {
  it('saves, lists by position, changes and deletes the caller’s filters', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    await call(groupsApi.create, { body: { name: 'Work', color: '#3B82F6' } });
    const first = await call(filtersApi.create, { body });
    expect(first.statusCode).toBe(201);
    expect(first.headers.etag).toBe('"1"');
    const saved = first.data();
    expect(saved).toEqual({ id: saved.id, ...body, position: 0, version: 1 });
    const second = (
      await call(filtersApi.create, { body: { name: 'Urgent', color: '#EF4444', query: 'p1' } })
    ).data();
    expect(second.position).toBe(1);
    const top = (
      await call(filtersApi.create, {
        body: { name: 'Top', color: '#EF4444', query: 'overdue', position: 0 },
      })
    ).data();
    expect((await call(filtersApi.list)).data().map((filter) => filter.name)).toEqual([
      'Work today',
      'Top',
      'Urgent',
    ]);

    const moved = await call(filtersApi.update, {
      params: { id: second.id },
      body: { name: 'Urgent', color: '#EF4444', query: 'p1 | p2' },
    });
    expect(moved.data()).toMatchObject({ query: 'p1 | p2', position: 1, version: 2 });
    const stale = await call(filtersApi.update, {
      params: { id: second.id },
      headers: { 'if-match': '"1"' },
      body: { name: 'Late', color: '#EF4444', query: 'p1' },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ name: 'Urgent', version: 2 });

    expect((await call(filtersApi.remove, { params: { id: top.id } })).statusCode).toBe(204);
    expect((await call(filtersApi.remove, { params: { id: top.id } })).statusCode).toBe(404);
    expect((await call(filtersApi.list)).data()).toHaveLength(2);
  });

  it('keeps each user’s filters to themselves', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    const mine = (await call(filtersApi.create, { body: { ...body, query: 'today' } })).data();
    const other = apiClient(ctx.app, await registerUser(ctx.app));
    expect((await other(filtersApi.list)).data()).toEqual([]);
    const update = await other(filtersApi.update, { params: { id: mine.id }, body });
    expect(update.statusCode).toBe(404);
    expect((await other(filtersApi.remove, { params: { id: mine.id } })).statusCode).toBe(404);
  });

  it('refuses a query it cannot read with a 400 naming query and the place', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    const typo = await call(filtersApi.create, { body: { ...body, query: 'p1 & overdeu' } });
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toEqual({ error: 'query: `overdeu` at 6: did you mean `overdue`?' });
    const group = await call(filtersApi.create, { body });
    expect(group.json()).toEqual({ error: 'query: `#Work` at 1: no such group' });
    const empty = await call.unchecked(filtersApi.create, { body: { ...body, query: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ error: string }>().error).toMatch(/query/);
    const color = await call.unchecked(filtersApi.create, { body: { ...body, color: 'red' } });
    expect(color.statusCode).toBe(400);
  });

  it(`keeps at most ${SAVED_FILTERS_MAX} per user`, async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    for (let i = 0; i < SAVED_FILTERS_MAX; i += 1) {
      await call(filtersApi.create, { body: { ...body, name: `f${i}`, query: 'today' } });
    }
    const over = await call(filtersApi.create, { body: { ...body, query: 'today' } });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      error: `You can keep at most ${SAVED_FILTERS_MAX} saved filters`,
    });
  });

  it('shows the todos of its query through GET /api/todos?filter=', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    await call(todosApi.create, { body: { title: 'Urgent thing', priority: 3 } });
    await call(todosApi.create, { body: { title: 'Calm thing' } });
    const saved = (await call(filtersApi.create, { body: { ...body, query: 'p1' } })).data();
    const todos = (await call(todosApi.list, { query: { filter: saved.query } })).data();
    expect(todos.map((todo) => todo.title)).toEqual(['Urgent thing']);
  });
});

describe('API tokens limited to a saved filter', () => {
  it("answer that filter's todos on GET /api/todos and refuse every other call", async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    await call(todosApi.create, { body: { title: 'Urgent thing', priority: 3 } });
    await call(todosApi.create, { body: { title: 'Calm thing' } });
    const saved = (await call(filtersApi.create, { body: { ...body, query: 'p1' } })).data();
    const created = await call(tokensApi.create, {
      body: { name: 'Dashboard', scope: 'read', expiresInDays: null, filterId: saved.id },
    });
    expect(created.statusCode).toBe(201);
    const { token, filterId } = created.data();
    expect(filterId).toBe(saved.id);

    const dashboard = apiClient(ctx.app, { token });
    const todos = await dashboard(todosApi.list);
    expect(todos.data().map((todo) => todo.title)).toEqual(['Urgent thing']);
    const refusal =
      "This API token shows one saved filter's todos: it can only call GET /api/todos";
    for (const answer of [
      await dashboard(groupsApi.list),
      await dashboard(filtersApi.list),
      await dashboard(todosApi.counts),
    ]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ error: refusal });
    }
    const write = await dashboard(todosApi.create, { body: { title: 'Sneaky' } });
    expect(write.statusCode).toBe(403);
    // Nor is it an app password for a calendar app.
    const dav = await ctx.app.inject({
      method: 'PROPFIND',
      url: `/dav/calendars/${user.id}/`,
      headers: {
        authorization: `Basic ${Buffer.from(`${user.email}:${token}`).toString('base64')}`,
        depth: '0',
      },
    });
    expect(dav.statusCode).toBe(401);
    const other = await dashboard(todosApi.list, { query: { filter: 'completed' } });
    expect(other.json()).toEqual({ error: 'filter: this API token shows its saved filter only' });

    // The filter's change shows at once; deleting the filter ends the token.
    await call(filtersApi.update, { params: { id: saved.id }, body: { ...body, query: 'p4' } });
    expect((await dashboard(todosApi.list)).data().map((todo) => todo.title)).toEqual([
      'Calm thing',
    ]);
    await call(filtersApi.remove, { params: { id: saved.id } });
    expect((await dashboard(todosApi.list)).statusCode).toBe(401);
  });

  it('must be read-only and name one of the caller’s filters', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    const saved = (await call(filtersApi.create, { body: { ...body, query: 'p1' } })).data();
    const readWrite = await call(tokensApi.create, {
      body: { name: 'x', scope: 'read-write', expiresInDays: null, filterId: saved.id },
    });
    expect(readWrite.statusCode).toBe(400);
    expect(readWrite.json()).toEqual({
      error: 'scope must be read for a token limited to a filter',
    });
    const stranger = apiClient(ctx.app, await registerUser(ctx.app));
    const notTheirs = await stranger(tokensApi.create, {
      body: { name: 'x', scope: 'read', expiresInDays: null, filterId: saved.id },
    });
    expect(notTheirs.statusCode).toBe(404);
  });
});

describe("a saved filter's calendar feed", () => {
  it('holds the dated todos the filter shows, at its own secret URL', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    await call(todosApi.create, {
      body: { title: 'Urgent and dated', priority: 3, dueDate: '2026-03-12' },
    });
    await call(todosApi.create, { body: { title: 'Calm and dated', dueDate: '2026-03-12' } });
    await call(todosApi.create, { body: { title: 'Urgent, no date', priority: 3 } });
    const saved = (await call(filtersApi.create, { body: { ...body, query: 'p1' } })).data();
    const made = await call(filtersApi.makeFeed, {
      params: { id: saved.id },
      headers: { 'x-time-zone': 'Europe/Paris' },
    });
    expect(made.statusCode).toBe(201);
    const feed = made.data();
    expect(feed).toMatchObject({ timeZone: 'Europe/Paris' });
    expect(feed.path).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const listed = (await call(filtersApi.list)).data();
    expect(listed[0]?.feed).toEqual(feed);

    const ics = await ctx.app.inject({ method: 'GET', url: feed.path });
    expect(ics.statusCode).toBe(200);
    expect(ics.body).toContain('X-WR-CALNAME:Tally');
    expect(ics.body).toContain('SUMMARY:Urgent and dated');
    expect(ics.body).not.toContain('Calm and dated');
    expect(ics.body).not.toContain('Urgent, no date');

    const other = apiClient(ctx.app, await registerUser(ctx.app));
    expect((await other(filtersApi.makeFeed, { params: { id: saved.id } })).statusCode).toBe(404);
    const off = await call(filtersApi.removeFeed, { params: { id: saved.id } });
    expect(off.statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: feed.path })).statusCode).toBe(404);
    expect((await call(filtersApi.list)).data()[0]?.feed).toBeUndefined();
  });
});
