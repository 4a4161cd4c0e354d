import { describe, expect, it } from 'vitest';
import { expectConsoleError } from './console-guard';
import { json, stubFetch } from './fake-api';

describe('the fake backend', () => {
  it('reports an answer unlike the contract (which fails the test that got it)', async () => {
    stubFetch({ 'GET /api/todos': () => json([{ id: 'one', title: 'Milk' }]) });
    const response = await fetch('/api/todos');
    expect(response.status).toBe(200);
    expectConsoleError(/Fake answer unlike the contract: GET \/api\/todos answered 200: \/0\//);
  });

  it('reports a status the call never answers with, and takes a nullable field as null', async () => {
    stubFetch({
      'GET /api/todo-groups': () => json({ error: 'Gone' }, 410),
      'GET /api/account/calendar': () => json(null),
    });
    await fetch('/api/todo-groups');
    expectConsoleError(/GET \/api\/todo-groups answered 410, a status the contract does not list/);
    expect(await (await fetch('/api/account/calendar')).json()).toBeNull();
  });
});
