import { groupsApi, type Todo, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

describe('GET /api/todos paging (opt-in)', () => {
  it('pages newest first with a cursor, covering the whole list exactly once', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    for (let i = 0; i < 7; i++) {
      // Several todos share a created time: the id breaks the tie.
      if (i % 3 === 0) ctx.clock.advance(1000);
      await call(todosApi.create, { body: { title: `todo ${i}` } });
    }
    const whole = (await call(todosApi.list)).data();
    expect(whole).toHaveLength(7);

    const pages: Todo[][] = [];
    let cursor: string | undefined;
    do {
      const answer = await call(todosApi.list, {
        query: { limit: 3, ...(cursor ? { cursor } : {}) },
      });
      expect(answer.statusCode).toBe(200);
      pages.push(answer.data());
      cursor = answer.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(whole);
  });

  it('refuses a bad cursor or limit with a sentence naming it', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    const bad = await call(todosApi.list, { query: { cursor: 'bm90LWEtY3Vyc29y' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/cursor/);
    // Well formed, but with an id past the id column's range (a 500 on PostgreSQL before).
    for (const [view, text] of [
      [undefined, '1773144000000.2147483648'],
      ['upcoming', '2026-03-10||2147483648'],
      ['overdue', '2026-03-10|09:00|9999999999'],
    ] as const) {
      const cursor = Buffer.from(text).toString('base64url');
      const outOfRange = await call(todosApi.list, { query: { limit: 5, cursor, view } });
      expect(outOfRange.statusCode, text).toBe(400);
      expect(outOfRange.json()).toEqual({
        error: 'cursor is not a cursor this server gave out',
      });
    }
    const zero = await call.unchecked(todosApi.list, { query: { limit: 0 } });
    expect(zero.statusCode).toBe(400);
    expect(zero.json<{ error: string }>().error).toMatch(/limit/);
  });
});

describe('GET /api/todos/counts', () => {
  it('counts the caller’s todos in all, ungrouped and per group, and nobody else’s', async () => {
    const call = apiClient(ctx.app, await registerUser(ctx.app));
    const empty = await call(todosApi.counts);
    expect(empty.statusCode).toBe(200);
    expect(empty.data()).toEqual({ all: 0, ungrouped: 0, groups: [] });

    const groupIds: number[] = [];
    for (const name of ['Home', 'Work']) {
      const group = await call(groupsApi.create, { body: { name, color: '#3B82F6' } });
      groupIds.push(group.data().id);
    }
    const [home, work] = groupIds as [number, number];
    for (const groupId of [home, home, work, null, null, null]) {
      await call(todosApi.create, { body: { title: 'x', groupId } });
    }
    const other = apiClient(ctx.app, await registerUser(ctx.app));
    await other(todosApi.create, { body: { title: 'not mine' } });

    const counts = (await call(todosApi.counts)).data();
    expect(counts).toEqual({
      all: 6,
      ungrouped: 3,
      groups: [
        { groupId: home, count: 2 },
        { groupId: work, count: 1 },
      ],
    });
  });
});
