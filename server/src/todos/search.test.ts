import { SEARCH_QUERY_MAX, type Todo, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchWords } from '@tally/contract/search-words';
import { searchText } from '../shared/search-text.js';
import { apiClient } from '../test/api-client.js';
import { todosClient } from '../test/todos-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  alice = await registerUser(ctx.app);
  bob = await registerUser(ctx.app);
  const add = async (user: TestUser, title: string, description?: string) => {
    ctx.clock.advance(1000);
    await todosClient(ctx.app, user).made({ title, ...(description ? { description } : {}) });
  };
  await add(alice, 'Buy milk', 'two litres');
  await add(alice, 'Call the CAFÉ owner');
  await add(alice, 'Taxes', 'ask about the crème brûlée receipt');
  await add(alice, 'milk milk milk', 'milk');
  await add(alice, 'Straße fegen');
  await add(bob, 'Buy milk for Bob');
});
afterAll(async () => ctx.close());

/** GET /api/todos?q= as it is sent (hostile queries included), with more of the query. */
const search = async (q: string, user = alice, more: Record<string, string | number> = {}) =>
  apiClient(ctx.app, user).unchecked(todosApi.list, { query: { q, ...more } });
const titles = async (q: string, user = alice) => {
  const response = await search(q, user);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Todo[]>().map((todo) => todo.title);
};

describe('search words', () => {
  it('are lower case, without accents, split at anything but letters and digits', () => {
    expect(searchWords('Crème BRÛLÉE, e-mail: İstanbul ½')).toEqual([
      'creme',
      'brulee',
      'e',
      'mail',
      'istanbul',
      '1',
      '2',
    ]);
    expect(searchText('Title', null)).toBe('title');
  });
});

describe('GET /api/todos?q=', () => {
  it('finds the caller’s todos by title or description, ignoring case and accents', async () => {
    expect(await titles('cafe')).toEqual(['Call the CAFÉ owner']);
    expect(await titles('CRÈME')).toEqual(['Taxes']);
    expect(await titles('brulee receipt')).toEqual(['Taxes']);
    expect(await titles('LITRES')).toEqual(['Buy milk']);
    expect(await titles('straße')).toEqual(['Straße fegen']);
  });

  it('matches the last word as a prefix, and every word must occur', async () => {
    expect(await titles('buy mil')).toEqual(['Buy milk']);
    expect(await titles('mi buy')).toEqual([]);
    expect(await titles('cal')).toEqual(['Call the CAFÉ owner']);
  });

  it('ranks the better match first and never shows another user’s todos', async () => {
    expect(await titles('milk')).toEqual(['milk milk milk', 'Buy milk']);
    expect(await titles('milk', bob)).toEqual(['Buy milk for Bob']);
  });

  it('follows edits and deletes', async () => {
    const user = await registerUser(ctx.app);
    const api = todosClient(ctx.app, user);
    const todo = await api.made({ title: 'Water plants' });
    await api.put(todo.id, { title: 'Feed the cat', completed: false });
    expect(await titles('water', user)).toEqual([]);
    expect(await titles('cat', user)).toEqual(['Feed the cat']);
    await api.remove(todo.id);
    expect(await titles('cat', user)).toEqual([]);
    await api.restore(todo.id);
    expect(await titles('cat', user)).toEqual(['Feed the cat']);
  });

  it('pages with limit and cursor', async () => {
    const first = await search('milk', alice, { limit: 1 });
    expect(first.json<Todo[]>().map((todo) => todo.title)).toEqual(['milk milk milk']);
    const cursor = first.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const second = await search('milk', alice, { limit: 1, cursor });
    expect(second.json<Todo[]>().map((todo) => todo.title)).toEqual(['Buy milk']);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    const bad = await search('milk', alice, { cursor: 'bm9wZQ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/cursor/);
  });

  it('takes hostile queries as plain text: results or a 400 naming q, never a 500', async () => {
    const hostile = [
      '"',
      '""',
      "'",
      '*',
      'milk*',
      '* milk',
      'NEAR(milk buy)',
      'milk NEAR buy',
      'milk OR buy',
      'milk AND NOT buy',
      '(milk',
      'milk)',
      '^milk',
      'title:milk',
      '-milk',
      'milk & buy | !x',
      "milk:* & 'buy'",
      '\\',
      '%',
      '_',
      '\u0001\u0002milk\u007f',
      '\u0000',
      '🥛 milk',
      ' ',
      '',
      'a'.repeat(SEARCH_QUERY_MAX),
      'a '.repeat(SEARCH_QUERY_MAX / 2),
    ];
    for (const q of hostile) {
      const response = await search(q);
      expect([200, 400], `${JSON.stringify(q)}: ${response.body}`).toContain(response.statusCode);
      if (response.statusCode === 400) {
        expect(response.json<{ error: string }>().error).toMatch(/\bq\b/);
      }
    }
    expect(await titles('milk*')).toEqual(['milk milk milk', 'Buy milk']);
    const long = await search('x'.repeat(10 * 1024));
    expect(long.statusCode).toBe(400);
    expect(long.json<{ error: string }>().error).toMatch(/^q /);
    const withView = await search('milk', alice, { view: 'today' });
    expect(withView.statusCode).toBe(400);
    expect(withView.json<{ error: string }>().error).toMatch(/\bq\b/);
  });
});
