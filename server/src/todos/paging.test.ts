import type { Todo, TodoCounts } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, registerUser, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

describe('GET /api/todos paging (opt-in)', () => {
  it('pages newest first with a cursor, covering the whole list exactly once', async () => {
    const user = await registerUser(ctx.app);
    const request = as(ctx.app, user);
    for (let i = 0; i < 7; i++) {
      // Several todos share a created time: the id breaks the tie.
      if (i % 3 === 0) ctx.clock.advance(1000);
      await request({ method: 'POST', url: '/api/todos', payload: { title: `todo ${i}` } });
    }
    const whole = (await request({ method: 'GET', url: '/api/todos' })).json<Todo[]>();
    expect(whole).toHaveLength(7);

    const pages: Todo[][] = [];
    let cursor: string | undefined;
    do {
      const response = await request({
        method: 'GET',
        url: `/api/todos?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      });
      expect(response.statusCode).toBe(200);
      pages.push(response.json<Todo[]>());
      cursor = response.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(whole);
  });

  it('refuses a bad cursor or limit with a sentence naming it', async () => {
    const user = await registerUser(ctx.app);
    const request = as(ctx.app, user);
    const bad = await request({ method: 'GET', url: '/api/todos?cursor=bm90LWEtY3Vyc29y' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/cursor/);
    // Well formed, but with an id past the id column's range (a 500 on PostgreSQL before).
    for (const [view, text] of [
      ['', '1773144000000.2147483648'],
      ['&view=upcoming', '2026-03-10||2147483648'],
      ['&view=overdue', '2026-03-10|09:00|9999999999'],
    ] as const) {
      const cursor = Buffer.from(text).toString('base64url');
      const outOfRange = await request({
        method: 'GET',
        url: `/api/todos?limit=5&cursor=${cursor}${view}`,
      });
      expect(outOfRange.statusCode, text).toBe(400);
      expect(outOfRange.json()).toEqual({ error: 'cursor is not a cursor this server gave out' });
    }
    const zero = await request({ method: 'GET', url: '/api/todos?limit=0' });
    expect(zero.statusCode).toBe(400);
    expect(zero.json<{ error: string }>().error).toMatch(/limit/);
  });
});

describe('GET /api/todos/counts', () => {
  it('counts the caller’s todos in all, ungrouped and per group, and nobody else’s', async () => {
    const user = await registerUser(ctx.app);
    const other = await registerUser(ctx.app);
    const request = as(ctx.app, user);
    const empty = await request({ method: 'GET', url: '/api/todos/counts' });
    expect(empty.statusCode).toBe(200);
    expect(empty.json<TodoCounts>()).toEqual({ all: 0, ungrouped: 0, groups: [] });

    const groupIds: number[] = [];
    for (const name of ['Home', 'Work']) {
      const response = await request({
        method: 'POST',
        url: '/api/todo-groups',
        payload: { name, color: '#3B82F6' },
      });
      groupIds.push(response.json<{ id: number }>().id);
    }
    const [home, work] = groupIds as [number, number];
    for (const groupId of [home, home, work, null, null, null]) {
      await request({ method: 'POST', url: '/api/todos', payload: { title: 'x', groupId } });
    }
    await as(ctx.app, other)({ method: 'POST', url: '/api/todos', payload: { title: 'not mine' } });

    const counts = (await request({ method: 'GET', url: '/api/todos/counts' })).json<TodoCounts>();
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
