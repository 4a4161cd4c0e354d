import { PRIORITIES, type PatchTodoBody, type Todo, todosApi, tokensApi } from '@tally/contract';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { createTestApp, registerUser, type TestContext } from '../test/helpers.js';

/**
 * Never lose an edit (docs/decisions/113-versions-and-if-match.md): two API clients and a
 * CalDAV client (Debian's python3-caldav, against the listening server) change one set of todos
 * at once, each write carrying the version it started
 * from. At the end every field holds the last value a 2xx answer accepted for it, and every
 * other write was refused with 412: none lost, none applied on top of a change it had not seen.
 */

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const WRITER = path.join(import.meta.dirname, '..', 'caldav', 'clients', 'concurrent-writer.py');

let ctx: TestContext;
/** The listening server's address, for the CalDAV client: any free port. */
let base: string;
beforeAll(async () => {
  // Installed by .ci/run; elsewhere: apt-get install python3-caldav.
  await run(PYTHON, ['-c', 'import caldav']).catch(() => {
    throw new Error('python3 -c "import caldav" failed: install python3-caldav');
  });
  ctx = await createTestApp();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/`;
});
afterAll(() => ctx.close());

const WRITES_PER_CLIENT = 170;
const TODOS = 4;

/** A small seeded generator (mulberry32), so a failure can be run again as it was. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Field = 'title' | 'description' | 'priority' | 'dueDate';
type Values = Partial<Record<Field, string | number>>;

/** One line of the CalDAV client: a PUT, what it set, and the ETags before and after. */
interface DavWrite {
  url: string;
  values: Values;
  etag: string | null;
  status: number;
  answerEtag: string | null;
}

/** A write answered 2xx: the fields it set and the version it made. */
interface Accepted {
  todoId: number;
  values: Values;
  basedOn: number;
  version: number;
}

describe('concurrent writers with versions', () => {
  it('keeps the last accepted value of every field and refuses every other write with 412', async () => {
    const user = await registerUser(ctx.app);
    const call = apiClient(ctx.app, user);
    const made = await call(tokensApi.create, {
      body: { name: 'Phone', scope: 'read-write', expiresInDays: null },
    });
    const { token } = made.json<{ token: string }>();
    const ids: number[] = [];
    for (let i = 0; i < TODOS; i++) {
      ids.push((await call(todosApi.create, { body: { title: `todo ${i}` } })).expectBody(201).id);
    }

    const accepted: Accepted[] = [];
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const current = async (id: number): Promise<Todo> => {
      const todo = (await call(todosApi.list)).expectBody(200).find((found) => found.id === id);
      if (!todo) throw new Error(`todo ${id} is gone`);
      return todo;
    };

    /** A web or API client: reads a todo, changes a random subset of its fields with PATCH. */
    async function apiWriter(name: string, seed: number) {
      const next = random(seed);
      for (let n = 0; n < WRITES_PER_CLIENT; n++) {
        const id = ids[Math.floor(next() * ids.length)] ?? 0;
        const todo = await current(id);
        const body: PatchTodoBody = {};
        const values: Values = {};
        while (Object.keys(body).length === 0) {
          if (next() < 0.5) body.title = values.title = `${name} title ${n}`;
          if (next() < 0.4) body.description = values.description = `${name} notes ${n}`;
          if (next() < 0.4) body.priority = values.priority = PRIORITIES[n % PRIORITIES.length];
          if (next() < 0.3)
            body.dueDate = values.dueDate = `2027-01-${String((n % 28) + 1).padStart(2, '0')}`;
        }
        const answer = await call(todosApi.patch, {
          params: { id },
          body,
          headers: { 'if-match': `"${todo.version}"` },
        });
        count(answer.statusCode);
        if (answer.statusCode === 200) {
          accepted.push({
            todoId: id,
            values,
            basedOn: todo.version,
            version: answer.data().version,
          });
        }
      }
    }

    /**
     * A calendar app, Debian's python3-caldav (caldav/clients/concurrent-writer.py): GETs the
     * VTODO, changes SUMMARY, DESCRIPTION or both, PUTs it with If-Match, one line a write.
     */
    async function caldavWriter(seed: number) {
      const objects = ids.map((id) => `${base}dav/calendars/${user.id}/todos/tally-${id}.ics`);
      const { stdout } = await run(
        PYTHON,
        [WRITER, base, user.email, token, String(seed), String(WRITES_PER_CLIENT), ...objects],
        { timeout: 200_000, maxBuffer: 16 * 1024 * 1024 },
      );
      const versionOf = (etag: string | null) => Number(/^"\d+-(\d+)-/.exec(etag ?? '')?.[1]);
      for (const line of stdout.trim().split('\n')) {
        const write = JSON.parse(line) as DavWrite;
        count(write.status);
        if (write.status === 204) {
          accepted.push({
            todoId: Number(/tally-(\d+)\.ics$/.exec(write.url)?.[1]),
            values: write.values,
            basedOn: versionOf(write.etag),
            version: versionOf(write.answerEtag),
          });
        }
      }
    }

    await Promise.all([apiWriter('web', 1), apiWriter('phone', 2), caldavWriter(3)]);
    // The calendar app got some of its writes in, and was refused some: it took part.
    const davTitles = accepted.filter((write) =>
      /^dav /.test(String(Object.values(write.values)[0])),
    );
    expect(davTitles.length).toBeGreaterThan(0);
    expect(davTitles.length).toBeLessThan(WRITES_PER_CLIENT);

    const total = 3 * WRITES_PER_CLIENT;
    expect([...statuses.keys()].filter((status) => ![200, 204, 412].includes(status))).toEqual([]);
    expect((statuses.get(200) ?? 0) + (statuses.get(204) ?? 0) + (statuses.get(412) ?? 0)).toBe(
      total,
    );
    // Both outcomes happened: the writers did get in each other's way.
    expect(statuses.get(412) ?? 0).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);

    for (const id of ids) {
      const writes = accepted.filter((write) => write.todoId === id);
      // Each accepted write started from the version just before it: none overwrote a change
      // it had not read.
      for (const write of writes) expect(write.version).toBe(write.basedOn + 1);
      expect(new Set(writes.map((write) => write.version)).size).toBe(writes.length);
      writes.sort((a, b) => a.version - b.version);
      const final = await current(id);
      expect(final.version).toBe(writes.at(-1)?.version ?? 1);
      const expected: Values = {};
      for (const write of writes) Object.assign(expected, write.values);
      expect(final).toMatchObject(expected);
    }
  }, 240_000);
});
