import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/helpers.js';
import { preparedQuery, type Placeholders } from './prepared.js';

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

const usernamesOf = (rows: { username: string }[]) => rows.map((row) => row.username);

describe('prepared queries', () => {
  it('run with each call’s values and keep the query’s own constants', async () => {
    const { db } = database.handle;
    const othersAfter = preparedQuery((db, p: Placeholders<{ name: string; after: number }>) =>
      db
        .selectFrom('users')
        .select('username')
        .where('username_lower', '!=', p('name'))
        .where('created_at', '>', p('after'))
        .where('email_lower', 'like', '%@example.com')
        .where('email_lower', '!=', sql<string>`${p('name')} || '@example.com'`)
        .orderBy('username'),
    );
    expect(usernamesOf(await othersAfter(db, { name: 'bob', after: 999 }))).toEqual(['ada', 'cy']);
    expect(usernamesOf(await othersAfter(db, { after: 1001, name: 'ada' }))).toEqual(['cy']);
    // Inside a transaction, on its connection.
    const inside = await db
      .transaction()
      .execute(async (trx) => othersAfter(trx, { name: 'cy', after: 0 }));
    expect(usernamesOf(inside)).toEqual(['ada', 'bob']);
  });

  it('take lists of any length, short or long', async () => {
    const { db } = database.handle;
    const named = preparedQuery((db, p: Placeholders<{ names: string[] }>) =>
      db
        .selectFrom('users')
        .select('username')
        .where((eb) => eb.or(p('names').map((name) => eb('username_lower', '=', name))))
        .orderBy('username'),
    );
    expect(usernamesOf(await named(db, { names: ['cy'] }))).toEqual(['cy']);
    expect(usernamesOf(await named(db, { names: ['cy', 'ada'] }))).toEqual(['ada', 'cy']);
    expect(usernamesOf(await named(db, { names: ['bob'] }))).toEqual(['bob']);
    const many = Array.from({ length: 100 }, (_, i) => `nobody-${i}`);
    expect(usernamesOf(await named(db, { names: [...many, 'bob'] }))).toEqual(['bob']);
    expect(usernamesOf(await named(db, { names: [...many, 'ada'] }))).toEqual(['ada']);
  });

  it('on PostgreSQL, are prepared on the server by name, once per connection', async () => {
    const { db, dialect } = database.handle;
    const byName = preparedQuery((db, p: Placeholders<{ name: string }>) =>
      db.selectFrom('users').select('username').where('username_lower', '=', p('name')),
    );
    expect(usernamesOf(await byName(db, { name: 'ada' }))).toEqual(['ada']);
    expect(usernamesOf(await byName(db, { name: 'bob' }))).toEqual(['bob']);
    if (dialect !== 'postgres') return;
    // The pool hands out the client released last: the one that just ran the query.
    const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements
      where statement = 'select "username" from "users" where "username_lower" = $1'`.execute(db);
    expect(rows).toEqual([{ name: expect.stringMatching(/^tally_\d+$/) as string }]);
  });

  it('that build their rows from values answer the rows by name, in a transaction too', async () => {
    const { db } = database.handle;
    const built: { username: string; created_at: number }[] = [];
    const users = preparedQuery(
      (db, p: Placeholders<{ after: number }>) =>
        db
          .selectFrom('users')
          .select(['username', 'created_at'])
          .where('created_at', '>', p('after'))
          .orderBy('created_at'),
      {
        rowOf: (values) => {
          const row = { username: values[0] as string, created_at: values[1] as number };
          built.push(row);
          return row;
        },
      },
    );
    const expected = [
      { username: 'bob', created_at: 1001 },
      { username: 'cy', created_at: 1002 },
    ];
    expect(await users(db, { after: 1000 })).toEqual(expected);
    expect(await db.transaction().execute((trx) => users(trx, { after: 1000 }))).toEqual(expected);
    // Only PostgreSQL's pool answers values; SQLite's driver and a transaction answer objects.
    expect(built).toHaveLength(database.handle.dialect === 'postgres' ? 2 : 0);
  });

  it('refuse a placeholder used other than as a value', async () => {
    const { db } = database.handle;
    const branching = preparedQuery((db, p: Placeholders<{ all: boolean }>) =>
      db
        .selectFrom('users')
        .select('username')
        .where('created_at', '>', p('all') ? 0 : 1001),
    );
    await expect(branching(db, { all: false })).rejects.toThrow(
      "p('all') may only be used as a value of the query",
    );
  });
});
