import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../connection.js';
import { migrateToLatest, migrations } from '../migrate.js';

/** A todo's one reminder becomes the first of its list, and what waited still waits. */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-0030-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('migration 0030', () => {
  it('turns remind_minutes_before into reminder_minutes and keys the waiting rows by offset', async () => {
    const handle = connect({ databaseUrl: null, dataDir });
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: async () => migrations('sqlite') },
      });
      const before = await migrator.migrateTo('0029-notification-preferences');
      expect(before.error).toBeUndefined();
      await sql`pragma foreign_keys = off`.execute(handle.db);
      for (const [id, minutes] of [
        [1, 15],
        [2, null],
      ] as const) {
        await sql`insert into todos (id, user_id, title, completed, created_at, updated_at, search_text, due_date, due_time, remind_minutes_before)
          values (${id}, 1, ${`Todo ${id}`}, 0, 0, 0, '', '2026-03-10', '09:00', ${minutes})`.execute(
          handle.db,
        );
      }
      await sql`insert into reminders (todo_id, user_id, fire_at, due_date, due_time, time_zone, sent_at, push_at)
        values (1, 1, 1000, '2026-03-10', '09:00', 'Europe/Berlin', null, 2000)`.execute(handle.db);
      await migrateToLatest(handle.db, 'sqlite');
      const todos = await handle.db
        .selectFrom('todos')
        .select(['id', 'reminder_minutes'])
        .orderBy('id')
        .execute();
      expect(todos).toEqual([
        { id: 1, reminder_minutes: '[15]' },
        { id: 2, reminder_minutes: null },
      ]);
      expect(await handle.db.selectFrom('reminders').selectAll().execute()).toEqual([
        {
          todo_id: 1,
          minutes_before: 15,
          user_id: 1,
          fire_at: 1000,
          due_date: '2026-03-10',
          due_time: '09:00',
          time_zone: 'Europe/Berlin',
          sent_at: null,
          push_at: 2000,
        },
      ]);
    } finally {
      await handle.db.destroy();
    }
  });
});
