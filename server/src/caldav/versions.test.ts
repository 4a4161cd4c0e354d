import { statisticsApi, type Todo, todosApi } from '@tally/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { davAccount, davRequester, vtodoFrom } from '../test/caldav.js';
import { createTestApp, type TestContext } from '../test/helpers.js';

/**
 * One version behind the API's ETag and CalDAV's (docs/decisions/113-versions-and-if-match.md),
 * and a CalDAV PUT as one write: on SQLite and on PostgreSQL.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const request = davRequester(() => ctx.app);

async function account() {
  const user = await davAccount(ctx.app);
  const call = apiClient(ctx.app, user);
  const dav = (method: 'GET' | 'PUT' | 'DELETE', name: string, body?: string, headers = {}) =>
    request(user, method, `${user.home}todos/${name}`, body, headers);
  const todos = async () => (await call(todosApi.list)).expectBody(200);
  const totals = async () => (await call(statisticsApi.total)).expectBody(200);
  return { call, dav, todos, totals };
}

const vtodo = vtodoFrom('Test');

/**
 * Makes the database refuse an UPDATE of `column` on todos that `when` matches (SQL on OLD and
 * NEW): a fault between two steps of a write. Answers the undo.
 */
async function failUpdatesOf(column: string, when: string) {
  const { db, dialect } = ctx.database.handle;
  if (dialect === 'postgres') {
    await sql
      .raw(
        `create function injected_fault() returns trigger language plpgsql as $$
         begin raise exception 'injected fault'; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger injected_fault before update of ${column} on todos for each row
         when (${when}) execute function injected_fault()`,
      )
      .execute(db);
    return async () => {
      await sql.raw('drop trigger injected_fault on todos').execute(db);
      await sql.raw('drop function injected_fault()').execute(db);
    };
  }
  await sql
    .raw(
      `create trigger injected_fault before update of ${column} on todos when ${when}
       begin select raise(abort, 'injected fault'); end`,
    )
    .execute(db);
  return async () => {
    await sql.raw('drop trigger injected_fault').execute(db);
  };
}

describe('CalDAV and the API share one version', () => {
  it('answers every PUT with the ETag GET then answers', async () => {
    const { dav } = await account();
    const created = await dav('PUT', 'a.ics', vtodo('a', ['SUMMARY:Milk']));
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toMatch(/^"\d+-1-[\w-]+"$/);
    expect((await dav('GET', 'a.ics')).headers.etag).toBe(created.headers.etag);
    const changed = await dav('PUT', 'a.ics', vtodo('a', ['SUMMARY:Oat milk']), {
      'if-match': String(created.headers.etag),
    });
    expect(changed.statusCode).toBe(204);
    expect(changed.headers.etag).not.toBe(created.headers.etag);
    expect((await dav('GET', 'a.ics')).headers.etag).toBe(changed.headers.etag);
  });

  it('refuses a CalDAV PUT or DELETE with an ETag read before a web edit (412)', async () => {
    const { call, dav, todos } = await account();
    const created = await dav('PUT', 'b.ics', vtodo('b', ['SUMMARY:Bread']));
    const stale = String(created.headers.etag);
    const [todo] = await todos();
    const edited = await call(todosApi.patch, {
      params: { id: todo?.id ?? 0 },
      body: { description: 'rye' },
    });
    expect(edited.statusCode).toBe(200);
    const put = await dav('PUT', 'b.ics', vtodo('b', ['SUMMARY:White bread']), {
      'if-match': stale,
    });
    expect(put.statusCode).toBe(412);
    expect((await dav('DELETE', 'b.ics', undefined, { 'if-match': stale })).statusCode).toBe(412);
    expect(await todos()).toEqual([edited.json()]);
  });

  it('refuses a web edit with an If-Match taken before a CalDAV edit (412 and the todo)', async () => {
    const { call, dav, todos } = await account();
    await dav('PUT', 'c.ics', vtodo('c', ['SUMMARY:Call Sam']));
    const [before] = (await todos()) as [Todo];
    const put = await dav('PUT', 'c.ics', vtodo('c', ['SUMMARY:Call Sam back']));
    expect(put.statusCode).toBe(204);
    const [after] = (await todos()) as [Todo];
    expect(after.version).toBeGreaterThan(before.version);
    const edit = await call(todosApi.patch, {
      params: { id: before.id },
      body: { title: 'Call Alex' },
      headers: { 'if-match': `"${before.version}"` },
    });
    expect(edit.statusCode).toBe(412);
    expect(edit.json()).toEqual(after);
    expect(after.title).toBe('Call Sam back');
  });
});

describe('a CalDAV PUT is one write', () => {
  it('leaves nothing behind when its last step fails: no todo, no count, children as they were', async () => {
    const { dav, todos, totals } = await account();
    // A subtask sent before its parent waits for it.
    expect(
      (await dav('PUT', 'kid.ics', vtodo('kid', ['SUMMARY:Kid', 'RELATED-TO:mum']))).statusCode,
    ).toBe(201);
    const listed = await todos();
    const counted = await totals();
    // Adopting the subtask is the PUT's last step.
    const undo = await failUpdatesOf(
      'parent_id',
      'old.parent_id is null and new.parent_id is not null',
    );
    try {
      const put = await dav('PUT', 'mum.ics', vtodo('mum', ['SUMMARY:Mum']));
      expect(put.statusCode).toBe(500);
    } finally {
      await undo();
    }
    expect(await todos()).toEqual(listed);
    expect(await totals()).toEqual(counted);
    expect((await dav('GET', 'mum.ics')).statusCode).toBe(404);

    // Without the fault, the same PUT makes the parent and adopts the subtask.
    expect((await dav('PUT', 'mum.ics', vtodo('mum', ['SUMMARY:Mum']))).statusCode).toBe(201);
    const all = await todos();
    const mum = all.find((todo) => todo.title === 'Mum');
    expect(all.find((todo) => todo.title === 'Kid')?.parentId).toBe(mum?.id);
  });

  it('leaves a todo as it was when a step after its update fails', async () => {
    const { dav, todos, totals } = await account();
    await dav('PUT', 'd.ics', vtodo('d', ['SUMMARY:Dentist']));
    const listed = await todos();
    const counted = await totals();
    const etag = (await dav('GET', 'd.ics')).headers.etag;
    // The step after the update writes what Tally keeps of the VTODO for the client.
    const undo = await failUpdatesOf('ics_extra', 'new.ics_extra is not null');
    try {
      const put = await dav(
        'PUT',
        'd.ics',
        vtodo('d', ['SUMMARY:Dentist at 9', 'STATUS:COMPLETED']),
      );
      expect(put.statusCode).toBe(500);
    } finally {
      await undo();
    }
    expect(await todos()).toEqual(listed);
    expect(await totals()).toEqual(counted);
    expect((await dav('GET', 'd.ics')).headers.etag).toBe(etag);
  });
});
