import { todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';

/** GET /api/todos/{id}: one todo as it is now, with its version's ETag. */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('GET /api/todos/{id}', () => {
  it("answers the caller's todo with its ETag, and 404 for another's, a trashed one or none", async () => {
    const alice = apiClient(ctx.app, await registerUser(ctx.app));
    const bob = apiClient(ctx.app, await registerUser(ctx.app));
    const made = (
      await alice(todosApi.create, { body: { title: 'Renew passport', tags: ['admin'] } })
    ).expectBody(201);

    const got = await alice(todosApi.get, { params: { id: made.id } });
    expect(got.expectBody(200)).toEqual(made);
    expect(got.headers.etag).toBe(`"${made.version}"`);

    const notBobs = await bob(todosApi.get, { params: { id: made.id } });
    expect(notBobs.statusCode).toBe(404);
    expect(notBobs.json()).toEqual({ error: 'Todo not found', code: 'not_found' });

    expect((await alice(todosApi.remove, { params: { id: made.id } })).statusCode).toBe(204);
    expect((await alice(todosApi.get, { params: { id: made.id } })).statusCode).toBe(404);
    const notAnId = await alice.unchecked(todosApi.get, { params: { id: 'seven' } });
    expect(notAnId.statusCode).toBe(400);
  });
});
