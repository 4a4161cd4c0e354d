import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/**
 * Two-way CalDAV (docs/decisions/085-caldav.md).
 *
 * todos gain `uid` (the iCalendar UID a client gave it; null for a todo made in Tally, whose UID
 * is `tally-{id}`), `dav_name` (the resource name a client chose when it is not `{uid}.ics`) and
 * `ics_extra` (what Tally does not model, as JSON holding jCal: unknown properties, parameters
 * and alarms, returned unchanged) and `custom_repeat` (a RRULE Tally cannot represent, as
 * written: the web app shows it read-only). todo_groups gain `dav_name`: the collection name a
 * client chose with MKCALENDAR.
 *
 * caldav_changes: one row per change of a todo, written by triggers on todos, todo_tags and
 * tags (a rename changes the CATEGORIES of every todo with the tag), so
 * every path that changes a todo (the web app, bulk changes, trash, restore, import, a group's
 * deletion) is logged without each knowing about CalDAV. Its id is the sync token; a row keeps
 * the group and resource name the todo had, so a deleted or moved todo still names what a
 * client must forget.
 */
export function caldav(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  /** The resource name of the row `r` (NEW or OLD), as server/src/caldav/service.ts derives it. */
  const nameOf = (r: string) =>
    `coalesce(${r}.dav_name, coalesce(${r}.uid, 'tally-' || ${r}.id) || '.ics')`;
  const logRow = (r: string) =>
    `insert into caldav_changes (user_id, todo_id, group_id, name) values (${r}.user_id, ${r}.id, ${r}.group_id, ${nameOf(r)})`;
  const logRenamedTag = (r: string) =>
    `insert into caldav_changes (user_id, todo_id, group_id, name) select t.user_id, t.id, t.group_id, ${nameOf('t')} from todos t join todo_tags tt on tt.todo_id = t.id where tt.tag_id = ${r}.id`;
  const logTagged = (r: string) =>
    `insert into caldav_changes (user_id, todo_id, group_id, name) select t.user_id, t.id, t.group_id, ${nameOf('t')} from todos t where t.id = ${r}.todo_id`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('todos').addColumn('uid', 'text').execute();
      await db.schema.alterTable('todos').addColumn('dav_name', 'text').execute();
      await db.schema.alterTable('todos').addColumn('ics_extra', 'text').execute();
      await db.schema.alterTable('todos').addColumn('custom_repeat', 'text').execute();
      await db.schema.alterTable('todo_groups').addColumn('dav_name', 'text').execute();
      await db.schema
        .createIndex('todos_user_uid')
        .on('todos')
        .columns(['user_id', 'uid'])
        .execute();
      await db.schema
        .createTable('caldav_changes')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('todo_id', 'integer', (c) => c.notNull())
        .addColumn('group_id', 'integer')
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('caldav_changes_user')
        .on('caldav_changes')
        .columns(['user_id', 'group_id', 'id'])
        .execute();
      if (dialect === 'postgres') {
        await sql
          .raw(
            `create function caldav_log_todo() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' or (tg_op = 'UPDATE' and old.group_id is distinct from new.group_id) then
    ${logRow('old')};
  end if;
  if tg_op <> 'DELETE' then
    ${logRow('new')};
  end if;
  return null;
end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create function caldav_log_todo_tag() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then ${logTagged('old')}; else ${logTagged('new')}; end if;
  return null;
end $$`,
          )
          .execute(db);
        await sql`create trigger caldav_todos after insert or update or delete on todos for each row execute function caldav_log_todo()`.execute(
          db,
        );
        await sql`create trigger caldav_todo_tags after insert or delete on todo_tags for each row execute function caldav_log_todo_tag()`.execute(
          db,
        );
        await sql
          .raw(
            `create function caldav_log_tag_rename() returns trigger language plpgsql as $$
begin
  if old.name is distinct from new.name then ${logRenamedTag('new')}; end if;
  return null;
end $$`,
          )
          .execute(db);
        await sql`create trigger caldav_tags after update on tags for each row execute function caldav_log_tag_rename()`.execute(
          db,
        );
        return;
      }
      await sql
        .raw(`create trigger caldav_todos_insert after insert on todos begin ${logRow('new')}; end`)
        .execute(db);
      await sql
        .raw(
          `create trigger caldav_todos_update after update on todos begin
  ${logRow('new')};
  insert into caldav_changes (user_id, todo_id, group_id, name)
    select old.user_id, old.id, old.group_id, ${nameOf('old')} where old.group_id is not new.group_id;
end`,
        )
        .execute(db);
      await sql
        .raw(`create trigger caldav_todos_delete after delete on todos begin ${logRow('old')}; end`)
        .execute(db);
      await sql
        .raw(
          `create trigger caldav_todo_tags_insert after insert on todo_tags begin ${logTagged('new')}; end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger caldav_todo_tags_delete after delete on todo_tags begin ${logTagged('old')}; end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger caldav_tags_rename after update of name on tags when old.name is not new.name begin ${logRenamedTag('new')}; end`,
        )
        .execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') {
        await sql`drop trigger caldav_todos on todos`.execute(db);
        await sql`drop trigger caldav_todo_tags on todo_tags`.execute(db);
        await sql`drop function caldav_log_todo()`.execute(db);
        await sql`drop function caldav_log_todo_tag()`.execute(db);
        await sql`drop trigger caldav_tags on tags`.execute(db);
        await sql`drop function caldav_log_tag_rename()`.execute(db);
      } else {
        for (const name of [
          'todos_insert',
          'todos_update',
          'todos_delete',
          'todo_tags_insert',
          'todo_tags_delete',
          'tags_rename',
        ]) {
          await sql.raw(`drop trigger caldav_${name}`).execute(db);
        }
      }
      await db.schema.dropTable('caldav_changes').execute();
      await db.schema.dropIndex('todos_user_uid').execute();
      await db.schema.alterTable('todo_groups').dropColumn('dav_name').execute();
      for (const column of ['custom_repeat', 'ics_extra', 'dav_name', 'uid']) {
        await db.schema.alterTable('todos').dropColumn(column).execute();
      }
    },
  };
}
