import { GROUP_COLORS, type Group } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  registerUser,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';

let ctx: TestContext;
let alice: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  alice = await registerUser(ctx.app);
});
afterAll(async () => ctx.close());

const request = (
  user: TestUser,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => as(ctx.app, user)({ method, url, ...(payload ? { payload } : {}) });

describe('groups', () => {
  it('creates, lists newest first, renames and deletes a group', async () => {
    const user = await registerUser(ctx.app);
    const created: Group[] = [];
    for (const [i, name] of ['Work', 'Home'].entries()) {
      const response = await request(user, 'POST', '/api/todo-groups', {
        name: ` ${name} `,
        color: GROUP_COLORS[i],
      });
      expect(response.statusCode).toBe(201);
      created.push(response.json<Group>());
      ctx.clock.advance(1000);
    }
    expect(created[0]).toEqual({ id: expect.any(Number), name: 'Work', color: '#3B82F6' });
    const list = (await request(user, 'GET', '/api/todo-groups')).json<Group[]>();
    expect(list.map((g) => g.name)).toEqual(['Home', 'Work']);

    const work = created[0] as Group;
    const renamed = await request(user, 'PUT', `/api/todo-groups/${work.id}`, {
      name: 'Office',
      color: '#EC4899',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ id: work.id, name: 'Office', color: '#EC4899' });

    expect((await request(user, 'DELETE', `/api/todo-groups/${work.id}`)).statusCode).toBe(204);
    expect((await request(user, 'DELETE', `/api/todo-groups/${work.id}`)).statusCode).toBe(404);
    const totals = (await request(user, 'GET', '/api/statistics/total')).json();
    expect(totals).toMatchObject({ groupsCreated: 2, groupsUpdated: 1, groupsDeleted: 1 });
  });

  it('keeps names unique per user, ignoring case, but not across users', async () => {
    expect(
      (await request(alice, 'POST', '/api/todo-groups', { name: 'Errands', color: '#3B82F6' }))
        .statusCode,
    ).toBe(201);
    const duplicate = await request(alice, 'POST', '/api/todo-groups', {
      name: 'errands',
      color: '#EF4444',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'You already have a group named "errands"' });
    const other = await registerUser(ctx.app);
    expect(
      (await request(other, 'POST', '/api/todo-groups', { name: 'Errands', color: '#3B82F6' }))
        .statusCode,
    ).toBe(201);
  });

  it.each([
    [{ color: '#3B82F6' }, 'name is required'],
    [{ name: '  ', color: '#3B82F6' }, 'name must not be empty'],
    [{ name: 'x'.repeat(51), color: '#3B82F6' }, 'name must be at most 50 characters'],
    [{ name: 'Colour', color: '#000000' }, 'color must be one of #3B82F6'],
    [{ name: 'Colour' }, 'color is required'],
  ])('%j → 400 naming the field', async (payload, message) => {
    const response = await request(alice, 'POST', '/api/todo-groups', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain(message);
  });

  it('hides one user’s groups from another (404 on PUT and DELETE, absent from the list)', async () => {
    const group = (
      await request(alice, 'POST', '/api/todo-groups', { name: 'Secret', color: '#8B5CF6' })
    ).json<Group>();
    const bob = await registerUser(ctx.app);
    expect(
      (
        await request(bob, 'PUT', `/api/todo-groups/${group.id}`, {
          name: 'Mine',
          color: '#3B82F6',
        })
      ).statusCode,
    ).toBe(404);
    expect((await request(bob, 'DELETE', `/api/todo-groups/${group.id}`)).statusCode).toBe(404);
    expect((await request(bob, 'GET', '/api/todo-groups')).json()).toEqual([]);
    const aliceGroups = (await request(alice, 'GET', '/api/todo-groups')).json<Group[]>();
    expect(aliceGroups.find((g) => g.id === group.id)).toEqual(group);
  });
});
