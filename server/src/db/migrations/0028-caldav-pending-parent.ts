import { sql, type Kysely } from 'kysely';

/**
 * `todos.pending_parent_uid`: the UID a CalDAV client named as a todo's parent (RELATED-TO), which
 * is waiting for it while `parent_id` is null (a sync uploads subtasks before their parent). When
 * a todo with that UID is put, its waiting subtasks are found by this indexed column; before,
 * every new todo's PUT searched the JSON text of the user's todos without a parent, a cost that
 * grew with the calendar. Filled here from what was kept of each object (`ics_extra`).
 */
export function caldavPendingParent() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').addColumn('pending_parent_uid', 'text').execute();
      await db.schema
        .createIndex('todos_user_pending_parent')
        .on('todos')
        .columns(['user_id', 'pending_parent_uid'])
        .execute();
      // A resource is found by the name its client gave it on every PUT, GET and DELETE.
      await db.schema
        .createIndex('todos_user_dav_name')
        .on('todos')
        .columns(['user_id', 'dav_name'])
        .execute();
      const waiting = await sql<{ id: number; ics_extra: string }>`
        select id, ics_extra from todos
        where ics_extra like '%"parent":{"value":%'`.execute(db);
      for (const row of waiting.rows) {
        const extra = JSON.parse(row.ics_extra) as { known?: { parent?: { value?: unknown } } };
        const uid = extra.known?.parent?.value;
        if (typeof uid !== 'string') continue;
        await sql`update todos set pending_parent_uid = ${uid} where id = ${row.id}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('todos_user_dav_name').execute();
      await db.schema.dropIndex('todos_user_pending_parent').execute();
      await db.schema.alterTable('todos').dropColumn('pending_parent_uid').execute();
    },
  };
}
