import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../connection.js';
import { migrateToLatest, migrations } from '../migrate.js';

/** The pending parent of a subtask stored before the column came, read from what was kept. */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-0028-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('migration 0028', () => {
  it('fills pending_parent_uid from the parent each stored object named', async () => {
    const handle = connect({ databaseUrl: null, dataDir });
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: async () => migrations('sqlite') },
      });
      const before = await migrator.migrateTo('0025-user-preferences');
      expect(before.error).toBeUndefined();
      await sql`pragma foreign_keys = off`.execute(handle.db);
      const extra = (parent: string | null) =>
        JSON.stringify({ known: parent === null ? {} : { parent: { value: parent, props: [] } } });
      for (const [id, ics] of [
        [1, extra('parent-1')],
        [2, extra(null)],
        [3, null],
      ] as const) {
        await sql`insert into todos (id, user_id, title, completed, created_at, updated_at, ics_extra)
          values (${id}, 1, ${`Todo ${id}`}, 0, 0, 0, ${ics})`.execute(handle.db);
      }
      await migrateToLatest(handle.db, 'sqlite');
      const rows = await handle.db
        .selectFrom('todos')
        .select(['id', 'pending_parent_uid'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 1, pending_parent_uid: 'parent-1' },
        { id: 2, pending_parent_uid: null },
        { id: 3, pending_parent_uid: null },
      ]);
    } finally {
      await handle.db.destroy();
    }
  });
});
