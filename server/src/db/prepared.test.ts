import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/helpers.js';
import { compiledShape, precompile } from './prepared.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.handle.db
    .insertInto('users')
    .values(
      ['ada', 'bob', 'cy'].map((name, i) => ({
        username: name,
        username_lower: name,
        email: `${name}@example.com`,
        email_lower: `${name}@example.com`,
        password_hash: null,
        google_subject: null,
        created_at: 1000 + i,
      })),
    )
    .execute();
});
afterAll(async () => database.drop());

describe('compiled query shapes', () => {
  it('put each call’s arguments in place and keep the query’s own constants', async () => {
    const { db } = database.handle;
    const find = compiledShape<[string, number], { username: string }>((executor, name, after) =>
      executor
        .selectFrom('users')
        .select('username')
        .where('username_lower', '!=', name)
        .where('created_at', '>', after)
        .where('email_lower', 'like', '%@example.com')
        .orderBy('username'),
    );
    expect((await find(db, 'bob', 999)).rows.map((r) => r.username)).toEqual(['ada', 'cy']);
    expect((await find(db, 'ada', 1001)).rows.map((r) => r.username)).toEqual(['cy']);
    // Inside a transaction, on its connection.
    const inside = await db.transaction().execute(async (trx) => (await find(trx, 'cy', 0)).rows);
    expect(inside.map((r) => r.username)).toEqual(['ada', 'bob']);

    const byName = precompile(
      db,
      db.selectFrom('users').select('created_at').where('username_lower', '=', ''),
    );
    expect(await byName('bob')).toEqual([{ created_at: 1001 }]);
  });
});
