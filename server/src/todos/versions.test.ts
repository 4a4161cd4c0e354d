import {
  type BulkBody,
  type Group,
  groupsApi,
  type MoveTodoBody,
  type PatchTodoBody,
  tagsApi,
  type Todo,
  todosApi,
  type UpdateTodoBody,
} from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';
import { todosClient } from '../test/todos-client.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

/** One user's calls, each write able to carry an If-Match header. */
async function setUp() {
  const user = await registerUser(ctx.app);
  const api = todosClient(ctx.app, user);
  const { call } = api;
  const headers = (ifMatch?: string) => ({
    'x-time-zone': 'UTC',
    ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
  });
  const params = (todo: Pick<Todo, 'id'>) => ({ id: todo.id });
  const made = async (title: string, more: Partial<UpdateTodoBody> = {}) => {
    ctx.clock.advance(1000);
    return api.made({ title, ...more });
  };
  /** The todo as the list answers it now. */
  const current = async (todo: Pick<Todo, 'id'>) =>
    (await api.list()).find((found) => found.id === todo.id);
  return {
    api,
    call,
    made,
    current,
    put: (todo: Todo, body: UpdateTodoBody, ifMatch?: string) =>
      call(todosApi.update, { params: params(todo), body, headers: headers(ifMatch) }),
    patch: (todo: Todo, body: PatchTodoBody, ifMatch?: string) =>
      call(todosApi.patch, { params: params(todo), body, headers: headers(ifMatch) }),
    move: (todo: Todo, body: MoveTodoBody, ifMatch?: string) =>
      call(todosApi.move, { params: params(todo), body, headers: headers(ifMatch) }),
    skip: (todo: Todo, ifMatch?: string) =>
      call(todosApi.skip, { params: params(todo), headers: headers(ifMatch) }),
    remove: (todo: Todo, ifMatch?: string) =>
      call(todosApi.remove, { params: params(todo), headers: headers(ifMatch) }),
    bulk: (body: BulkBody) => call(todosApi.bulk, { body, headers: headers() }),
    group: async (name: string) =>
      (await call(groupsApi.create, { body: { name, color: '#EF4444' } })).expectBody(201),
    groups: async () => (await call(groupsApi.list)).expectBody(200),
  };
}

const etag = (thing: { version: number }) => `"${thing.version}"`;
const daily = { every: 1, unit: 'day', from: 'due' } as const;

describe('versions', () => {
  it('answers a version 1 on a new todo and group, and the ETag of every single answer', async () => {
    const { api, made, put, call } = await setUp();
    const created = await api.create({ title: 'Read' });
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toBe('"1"');
    const todo = created.data() as Todo;
    expect(todo.version).toBe(1);
    expect((await api.list())[0]?.version).toBe(1);

    const changed = await put(todo, { title: 'Read more', completed: false });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).toBe('"2"');
    expect(changed.data().version).toBe(2);

    const group = await call(groupsApi.create, { body: { name: 'Home', color: '#EF4444' } });
    expect(group.headers.etag).toBe('"1"');
    expect(group.data()).toMatchObject({ name: 'Home', version: 1 });
    expect(await made('other')).toMatchObject({ version: 1 });
  });

  it('refuses a stale If-Match with 412 and the todo as it is now, changing nothing', async () => {
    const { made, put, patch, move, skip, remove, current } = await setUp();
    const sibling = await made('sibling');
    const todo = await made('Pay rent', { dueDate: '2026-03-01', repeat: daily });
    const stale = etag(todo);
    // Another client changes it meanwhile.
    const newer = (await patch(todo, { description: 'by the 1st' })).expectBody(200);
    expect(newer.version).toBe(todo.version + 1);

    const refusals = [
      await put(todo, { title: 'Pay the rent', completed: false }, stale),
      await patch(todo, { title: 'Pay the rent' }, stale),
      // Completing is a write like any other.
      await patch(todo, { completed: true }, stale),
      await move(todo, { beforeId: sibling.id }, stale),
      await skip(todo, stale),
      await remove(todo, stale),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode).toBe(412);
      expect(refused.headers.etag).toBe(etag(newer));
      expect(refused.json()).toEqual(newer);
    }
    expect(await current(todo)).toEqual(newer);
    expect((await current(sibling))?.version).toBe(sibling.version);
  });

  it('applies a write whose If-Match names the current version (or *), and answers the next', async () => {
    const { made, put, patch, move, skip, remove, current } = await setUp();
    const sibling = await made('sibling');
    const todo = await made('Water plants', { dueDate: '2026-03-01', repeat: daily });
    const renamed = (await put(todo, { title: 'Water', completed: false }, etag(todo))).expectBody(
      200,
    );
    const patched = (
      await patch(renamed, { description: 'the fern' }, `"999", ${etag(renamed)}`)
    ).expectBody(200);
    const moved = (await move(patched, { afterId: sibling.id }, etag(patched))).expectBody(200);
    const skipped = (await skip(moved, '*')).expectBody(200);
    expect([renamed, patched, moved, skipped].map((t) => t.version)).toEqual([2, 3, 4, 5]);
    expect(skipped).toMatchObject({
      title: 'Water',
      description: 'the fern',
      dueDate: '2026-03-02',
    });
    expect((await remove(skipped, etag(skipped))).statusCode).toBe(204);
    expect(await current(todo)).toBeUndefined();
  });

  it('never matches a weak ETag, and refuses an If-Match that is not a list of ETags', async () => {
    const { made, patch, current } = await setUp();
    const todo = await made('Call mum');
    expect((await patch(todo, { title: 'x' }, `W/${etag(todo)}`)).statusCode).toBe(412);
    const malformed = await patch(todo, { title: 'x' }, '1');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      error: 'if-match must be * or ETags the API answered, each in quotes (e.g. "3")',
      code: 'invalid_format',
      field: 'if-match',
    });
    expect(await current(todo)).toEqual(todo);
  });

  it('keeps the old behaviour without If-Match: the last write wins', async () => {
    const { made, put, patch, current } = await setUp();
    const todo = await made('Plan trip');
    await patch(todo, { description: 'Lisbon' });
    const replaced = (await put(todo, { title: 'Plan the trip', completed: false })).expectBody(
      200,
    );
    // A full replacement clears what it leaves out, as before versions.
    expect(replaced).toMatchObject({ title: 'Plan the trip', description: null, version: 3 });
    expect(await current(todo)).toEqual(replaced);
  });

  it('keeps both changes when two clients change different fields with PATCH', async () => {
    const { made, patch, current } = await setUp();
    const todo = await made('Buy paint');
    // Both started from the same todo; each sends only the field it changed.
    const first = await patch(todo, { dueDate: '2026-04-02', description: 'white, 2 l' });
    expect(first.statusCode).toBe(200);
    const second = await patch(todo, { title: 'Buy white paint', priority: 2 });
    expect(second.statusCode).toBe(200);
    expect(await current(todo)).toMatchObject({
      title: 'Buy white paint',
      description: 'white, 2 l',
      dueDate: '2026-04-02',
      priority: 2,
      version: 3,
    });
  });

  it('refuses a bulk change naming a stale version with 412 and the todos that changed', async () => {
    const { made, patch, bulk, current, api } = await setUp();
    const a = await made('a');
    const b = await made('b');
    const newerB = (await patch(b, { title: 'b2' })).expectBody(200);
    for (const action of ['complete', 'delete', 'priority'] as const) {
      const refused = await bulk({
        ids: [a.id, b.id],
        action,
        versions: { [a.id]: a.version, [b.id]: b.version },
        ...(action === 'priority' ? { priority: 3 as const } : {}),
      });
      expect(refused.statusCode).toBe(412);
      expect(refused.json()).toEqual([newerB]);
    }
    expect(await current(a)).toEqual(a);
    expect(await current(b)).toEqual(newerB);

    const stray = await bulk({ ids: [a.id], action: 'complete', versions: { 99999: 1 } });
    expect(stray.statusCode).toBe(400);
    expect(stray.json()).toEqual({ error: 'versions: 99999 is not one of ids' });

    // Current versions (and ids left out of `versions`) pass.
    const done = await bulk({ ids: [a.id, b.id], action: 'complete', versions: { [a.id]: 1 } });
    expect(done.expectBody(200).map((t) => [t.completed, t.version])).toEqual([
      [true, 3],
      [true, 2],
    ]);
    // Restore compares the version the todo went to the trash with.
    const deleted = (await bulk({ ids: [a.id], action: 'delete' })).expectBody(200);
    const [trashed] = await api.trash();
    expect(trashed?.version).toBe(deleted[0]?.version);
    const staleRestore = await bulk({ ids: [a.id], action: 'restore', versions: { [a.id]: 1 } });
    expect(staleRestore.statusCode).toBe(412);
    const restored = await bulk({
      ids: [a.id],
      action: 'restore',
      versions: { [a.id]: deleted[0]?.version ?? 0 },
    });
    expect(restored.expectBody(200)[0]?.version).toBe((deleted[0]?.version ?? 0) + 1);
  });

  it('refuses a stale If-Match on a group update or delete with 412 and the group', async () => {
    const { call, group, groups } = await setUp();
    const work = await group('Work');
    const params = { id: work.id };
    const renamed = await call(groupsApi.update, {
      params,
      body: { name: 'Office', color: '#EF4444' },
      headers: { 'if-match': etag(work) },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.headers.etag).toBe('"2"');
    const office = renamed.data() as Group;
    expect(office).toEqual({ id: work.id, name: 'Office', color: '#EF4444', version: 2 });
    for (const stale of [
      await call(groupsApi.update, {
        params,
        body: { name: 'Desk', color: '#EF4444' },
        headers: { 'if-match': etag(work) },
      }),
      await call(groupsApi.remove, { params, headers: { 'if-match': etag(work) } }),
    ]) {
      expect(stale.statusCode).toBe(412);
      expect(stale.json()).toEqual(office);
    }
    expect(await groups()).toEqual([office]);
    const removed = await call(groupsApi.remove, { params, headers: { 'if-match': '"2"' } });
    expect(removed.statusCode).toBe(204);
  });

  it('gives a new version with every write from every path', async () => {
    const { api, call, made, patch, move, skip, bulk, current, group } = await setUp();
    const versionOf = async (todo: Pick<Todo, 'id'>) => (await current(todo))?.version ?? 0;
    const todo = await made('t', { dueDate: '2026-03-01', tags: ['home'] });
    const other = await made('other');
    const work = await group('Work');
    let last = todo.version;
    /** The write gave the todo a version above the one before. */
    const changes = async (what: string, write: () => Promise<unknown>, of: Todo = todo) => {
      await write();
      const version = await versionOf(of);
      expect(version, what).toBeGreaterThan(last);
      last = version;
    };
    await changes('PUT', () => api.put(todo.id, { title: 't2', completed: false }));
    await changes('PATCH', () => patch(todo, { priority: 1 }));
    await changes('complete', () => patch(todo, { completed: true }));
    await changes('reopen', () => patch(todo, { completed: false }));
    await changes('move', () => move(todo, { beforeId: other.id }));
    await changes('repeat set', () => patch(todo, { repeat: daily }));
    await changes('repeat moving on', () => patch(todo, { completed: true }));
    await changes('skip', () => skip(todo));
    await changes('repeat cleared', () => patch(todo, { repeat: null }));
    for (const action of ['complete', 'reopen'] as const) {
      await changes(`bulk ${action}`, () => bulk({ ids: [todo.id], action }));
    }
    await changes('bulk move', () => bulk({ ids: [todo.id], action: 'move', groupId: work.id }));
    await changes('bulk tag', () => bulk({ ids: [todo.id], action: 'tag', tag: 'errand' }));
    await changes('bulk untag', () => bulk({ ids: [todo.id], action: 'untag', tag: 'errand' }));
    await changes('bulk priority', () => bulk({ ids: [todo.id], action: 'priority', priority: 3 }));
    await changes('bulk parent', () => bulk({ ids: [todo.id], action: 'parent', parentId: null }));
    await changes('tag renamed', () =>
      call(tagsApi.update, { params: { name: 'home' }, body: { name: 'house' } }),
    );
    await changes('tag deleted', () => call(tagsApi.remove, { params: { name: 'house' } }));
    await changes('its group deleted', () => call(groupsApi.remove, { params: { id: work.id } }));
    await api.remove(todo.id);
    await changes('restored from the trash', () => api.restore(todo.id));
    await bulk({ ids: [todo.id], action: 'delete' });
    await changes('bulk restore (undo)', () => bulk({ ids: [todo.id], action: 'restore' }));

    // A repeating parent done for this occurrence reopens its done subtasks.
    await patch(todo, { repeat: daily });
    const child = await api.made({ title: 'child', parentId: todo.id });
    const doneChild = (await patch(child, { completed: true })).expectBody(200);
    last = doneChild.version;
    await changes('subtask reopened by its parent', () => patch(todo, { completed: true }), child);
  });

  it('documents If-Match and 412 in the OpenAPI document', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const document = response.json<{
      paths: Record<
        string,
        Record<string, { parameters?: { in: string; name: string }[]; responses: object }>
      >;
    }>();
    for (const [path, method] of [
      ['/api/todos/{id}', 'put'],
      ['/api/todos/{id}', 'patch'],
      ['/api/todos/{id}', 'delete'],
      ['/api/todos/{id}/move', 'post'],
      ['/api/todo-groups/{id}', 'put'],
      ['/api/todo-groups/{id}', 'delete'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect(operation?.parameters, `${method} ${path}`).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'if-match' }),
      );
      expect(Object.keys(operation?.responses ?? {}), `${method} ${path}`).toContain('412');
    }
    expect(Object.keys(document.paths['/api/todos/bulk']?.post?.responses ?? {})).toContain('412');
  });
});
