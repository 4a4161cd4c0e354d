import { type ImportFormat, type ImportRecord, type ImportUndo, LIMITS } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { batches } from '../shared/batches.js';
import type { Clock } from '../shared/clock.js';
import { conflict } from '../shared/errors.js';
import { isoTime } from '../shared/iso-time.js';
import { recordEvents } from '../statistics/record-events.js';
import { moveToTrash } from '../todos/trash.js';

const EDITED = 'Edited since the import';
const HOLDS_KEPT = 'It holds a subtask edited or added since the import';

/**
 * The import history (GET /api/imports) and Undo (POST /api/imports/{id}/undo), as
 * docs/decisions/137-import-history-and-undo.md describes: an import's todos go to the trash
 * as a delete would put them there, but for those edited since (their version moved on) and
 * those holding a subtask that stays; its groups are deleted once empty.
 */
export function createImportHistory(db: Kysely<Database>, clock: Clock) {
  async function list(userId: number): Promise<ImportRecord[]> {
    const rows = await db
      .selectFrom('imports')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      format: row.format as ImportFormat,
      fileName: row.file_name,
      createdAt: isoTime(Number(row.created_at)),
      todos: row.todos,
      groups: row.groups,
      undoneAt: row.undone_at === null ? null : isoTime(Number(row.undone_at)),
    }));
  }

  /** Null when the import is not the caller's. */
  async function undo(userId: number, importId: number): Promise<ImportUndo | null> {
    const now = clock();
    return db.transaction().execute(async (trx) => {
      const record = await trx
        .selectFrom('imports')
        .select(['id', 'undone_at'])
        .where('id', '=', importId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!record) return null;
      if (record.undone_at !== null) throw conflict('This import was undone already');
      const marks = await trx
        .selectFrom('import_todos')
        .select(['todo_id', 'version'])
        .where('import_id', '=', importId)
        .execute();
      const importedVersion = new Map(marks.map((mark) => [mark.todo_id, mark.version]));
      const imported = [...importedVersion.keys()];
      // Its todos as they are now, and every subtask under them (a level at a time: subtasks
      // nest at most 4 deep), those added since included.
      const rows: { id: number; title: string; parent_id: number | null; version: number }[] = [];
      const seen = new Set<number>();
      let level: number[] = imported;
      for (let depth = 0; level.length > 0 && depth <= LIMITS.subtaskLevelsMax; depth += 1) {
        const found: typeof rows = [];
        for (const batch of batches(level)) {
          found.push(
            ...(await trx
              .selectFrom('todos')
              .select(['id', 'title', 'parent_id', 'version'])
              .where('user_id', '=', userId)
              .where(depth === 0 ? 'id' : 'parent_id', 'in', batch)
              .execute()),
          );
        }
        const fresh = found.filter((row) => !seen.has(row.id));
        for (const row of fresh) seen.add(row.id);
        rows.push(...fresh);
        level = fresh.map((row) => row.id);
      }
      const children = new Map<number, number[]>();
      for (const row of rows) {
        if (row.parent_id === null) continue;
        children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row.id]);
      }
      const byId = new Map(rows.map((row) => [row.id, row]));
      // A todo goes when the import made it, it is as the import left it, and so is every
      // todo under it (a subtask edited or added since keeps its parent in place).
      const goes = new Map<number, boolean>();
      const decide = (id: number): boolean => {
        const known = goes.get(id);
        if (known !== undefined) return known;
        const row = byId.get(id);
        const mine = row !== undefined && importedVersion.get(id) === row.version;
        // Every child decided, so each is in `goes` for the list of those kept.
        const below = (children.get(id) ?? []).map(decide).every(Boolean);
        goes.set(id, mine && below);
        return mine && below;
      };
      const leaving = imported.filter((id) => byId.has(id) && decide(id));
      const keptTodos = imported
        .map((id) => byId.get(id))
        .filter((row): row is (typeof rows)[number] => row !== undefined && !goes.get(row.id))
        .map((row) => ({
          id: row.id,
          title: row.title,
          reason: importedVersion.get(row.id) === row.version ? HOLDS_KEPT : EDITED,
        }));
      const moved = await moveToTrash(trx, userId, leaving, now);
      await recordEvents(
        trx,
        userId,
        moved.map(() => 'todosDeleted' as const),
        now,
      );

      const groupIds = (
        await trx
          .selectFrom('import_groups')
          .select('group_id')
          .where('import_id', '=', importId)
          .execute()
      ).map((row) => row.group_id);
      const keptGroups: ImportUndo['keptGroups'] = [];
      let deletedGroups = 0;
      for (const groupId of groupIds) {
        const group = await trx
          .selectFrom('todo_groups')
          .select(['id', 'name'])
          .where('id', '=', groupId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (!group) continue;
        const used = await trx
          .selectFrom('todos')
          .select('id')
          .where('group_id', '=', groupId)
          .limit(1)
          .executeTakeFirst();
        if (used) {
          keptGroups.push({ id: group.id, name: group.name });
          continue;
        }
        await trx.deleteFrom('todo_groups').where('id', '=', groupId).execute();
        deletedGroups += 1;
      }
      await recordEvents(
        trx,
        userId,
        Array.from({ length: deletedGroups }, () => 'groupsDeleted' as const),
        now,
      );
      await trx.updateTable('imports').set({ undone_at: now }).where('id', '=', importId).execute();
      return { trashedTodos: moved.length, deletedGroups, keptTodos, keptGroups };
    });
  }

  return { list, undo };
}
