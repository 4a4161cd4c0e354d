import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Several reminders per todo (docs/decisions/175-several-reminders-per-todo.md).
 * `todos.reminder_minutes` holds what the user chose, a JSON array of minutes before the due
 * time, largest first (null for none), read with the row like `repeat`; it takes the place of
 * `remind_minutes_before`, whose value becomes its one element. `reminders` gets one row per
 * (todo, offset), so each reminder is claimed and sent once on its own; the table is made anew
 * because SQLite cannot change a primary key, and the rows waiting are copied with their offset.
 */
export function severalReminders(dialect: Dialect) {
  const time = dialect === 'postgres' ? 'bigint' : 'integer';

  /** `reminders` as 0030 makes it (one row per todo and offset), or as it was before. */
  async function createReminders(db: Kysely<unknown>, name: string, keyed: boolean) {
    const todo = db.schema
      .createTable(name)
      .addColumn('todo_id', 'integer', (c) =>
        c.notNull().references('todos.id').onDelete('cascade'),
      );
    // Either key: the columns after it are the same.
    const table: CreateTableBuilder<string, 'todo_id'> = keyed
      ? todo
          .addColumn('minutes_before', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${name}_key`, ['todo_id', 'minutes_before'])
      : todo.addPrimaryKeyConstraint(`${name}_key`, ['todo_id']);
    await table
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('fire_at', time, (c) => c.notNull())
      .addColumn('due_date', 'text', (c) => c.notNull())
      .addColumn('due_time', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('sent_at', time)
      .addColumn('push_at', time)
      .execute();
  }

  async function indexReminders(db: Kysely<unknown>) {
    await db.schema
      .createIndex('reminders_pending')
      .on('reminders')
      .columns(['sent_at', 'fire_at'])
      .execute();
    await db.schema
      .createIndex('reminders_user_sent')
      .on('reminders')
      .columns(['user_id', 'sent_at'])
      .execute();
    await db.schema.createIndex('reminders_waiting').on('reminders').column('push_at').execute();
  }

  const columns = sql.raw('user_id, fire_at, due_date, due_time, time_zone, sent_at, push_at');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').addColumn('reminder_minutes', 'text').execute();
      await sql`update todos set reminder_minutes = '[' || cast(remind_minutes_before as text) || ']'
        where remind_minutes_before is not null`.execute(db);

      await createReminders(db, 'reminders_by_offset', true);
      await sql`insert into reminders_by_offset (todo_id, minutes_before, ${columns})
        select r.todo_id, t.remind_minutes_before, ${sql.raw(
          'r.user_id, r.fire_at, r.due_date, r.due_time, r.time_zone, r.sent_at, r.push_at',
        )}
        from reminders r join todos t on t.id = r.todo_id
        where t.remind_minutes_before is not null`.execute(db);
      await db.schema.dropTable('reminders').execute();
      await db.schema.alterTable('reminders_by_offset').renameTo('reminders').execute();
      await indexReminders(db);

      await db.schema.alterTable('todos').dropColumn('remind_minutes_before').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').addColumn('remind_minutes_before', 'integer').execute();
      // The first reminder (the largest offset) is the one the single column can hold.
      const todos = await sql<{ id: number; reminder_minutes: string }>`
        select id, reminder_minutes from todos where reminder_minutes is not null`.execute(db);
      for (const todo of todos.rows) {
        const [first] = JSON.parse(todo.reminder_minutes) as number[];
        await sql`update todos set remind_minutes_before = ${first ?? null} where id = ${todo.id}`.execute(
          db,
        );
      }

      await createReminders(db, 'reminders_by_todo', false);
      await sql`insert into reminders_by_todo (todo_id, ${columns})
        select r.todo_id, ${sql.raw(
          'r.user_id, r.fire_at, r.due_date, r.due_time, r.time_zone, r.sent_at, r.push_at',
        )}
        from reminders r join todos t on t.id = r.todo_id
        where r.minutes_before = t.remind_minutes_before`.execute(db);
      await db.schema.dropTable('reminders').execute();
      await db.schema.alterTable('reminders_by_todo').renameTo('reminders').execute();
      await db.schema
        .createIndex('reminders_pending')
        .on('reminders')
        .columns(['sent_at', 'fire_at'])
        .execute();
      await db.schema
        .createIndex('reminders_user_sent')
        .on('reminders')
        .columns(['user_id', 'sent_at'])
        .execute();

      await db.schema.alterTable('todos').dropColumn('reminder_minutes').execute();
    },
  };
}
