import { GROUP_COLORS, groupsApi, statisticsApi, type Group } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext, type TestUser } from '../test/helpers.js';

let ctx: TestContext;
let alice: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  alice = await registerUser(ctx.app);
});
afterAll(async () => ctx.close());

/** The calls as the contract describes them (test/api-client.ts). */
const api = (user: TestUser) => apiClient(ctx.app, user);

describe('groups', () => {
  it('creates, lists newest first, renames and deletes a group', async () => {
    const user = await registerUser(ctx.app);
    const created: Group[] = [];
    for (const [name, color] of [
      ['Work', GROUP_COLORS[0]],
      ['Home', GROUP_COLORS[1]],
    ] as const) {
      const response = await api(user)(groupsApi.create, { body: { name: ` ${name} `, color } });
      expect(response.statusCode).toBe(201);
      created.push(response.data());
      ctx.clock.advance(1000);
    }
    expect(created[0]).toEqual({
      id: expect.any(Number),
      name: 'Work',
      color: '#3B82F6',
      version: 1,
    });
    const list = (await api(user)(groupsApi.list)).data();
    expect(list.map((g) => g.name)).toEqual(['Home', 'Work']);

    const work = created[0] as Group;
    const renamed = await api(user)(groupsApi.update, {
      params: { id: work.id },
      body: { name: 'Office', color: '#EC4899' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data()).toEqual({ id: work.id, name: 'Office', color: '#EC4899', version: 2 });

    const remove = () => api(user)(groupsApi.remove, { params: { id: work.id } });
    expect((await remove()).statusCode).toBe(204);
    expect((await remove()).statusCode).toBe(404);
    const totals = (await api(user)(statisticsApi.total)).data();
    expect(totals).toMatchObject({ groupsCreated: 2, groupsUpdated: 1, groupsDeleted: 1 });
  });

  it('keeps names unique per user, ignoring case, but not across users', async () => {
    const errands = { body: { name: 'Errands', color: '#3B82F6' } } as const;
    expect((await api(alice)(groupsApi.create, errands)).statusCode).toBe(201);
    const duplicate = await api(alice)(groupsApi.create, {
      body: { name: 'errands', color: '#EF4444' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({
      error: 'You already have a group named "errands"',
    });
    const other = await registerUser(ctx.app);
    expect((await api(other)(groupsApi.create, errands)).statusCode).toBe(201);
  });

  it.each([
    [{ color: '#3B82F6' }, 'name is required'],
    [{ name: '  ', color: '#3B82F6' }, 'name must not be empty'],
    [{ name: 'x'.repeat(51), color: '#3B82F6' }, 'name must be at most 50 characters'],
    [{ name: 'Colour', color: '#000000' }, 'color must be one of #3B82F6'],
    [{ name: 'Colour' }, 'color is required'],
  ])('%j → 400 naming the field', async (payload, message) => {
    // Bodies the contract refuses, so sent unchecked.
    const response = await api(alice).unchecked(groupsApi.create, { body: payload });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain(message);
  });

  it('hides one user’s groups from another (404 on PUT and DELETE, absent from the list)', async () => {
    const group = (
      await api(alice)(groupsApi.create, { body: { name: 'Secret', color: '#8B5CF6' } })
    ).data();
    const bob = await registerUser(ctx.app);
    const params = { id: group.id };
    const update = { params, body: { name: 'Mine', color: '#3B82F6' } } as const;
    expect((await api(bob)(groupsApi.update, update)).statusCode).toBe(404);
    expect((await api(bob)(groupsApi.remove, { params })).statusCode).toBe(404);
    expect((await api(bob)(groupsApi.list)).data()).toEqual([]);
    const aliceGroups = (await api(alice)(groupsApi.list)).data();
    expect(aliceGroups.find((g) => g.id === group.id)).toEqual(group);
  });
});
