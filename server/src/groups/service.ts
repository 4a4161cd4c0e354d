import type { Group, GroupBody } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database, Db, TodoGroupRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { conflict } from '../shared/errors.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import { changedMeanwhile, ifMatchAllows, nextVersion } from '../shared/versions.js';
import { recordEvents } from '../statistics/record-events.js';
import { COLUMNS, groupsOfUser, groupToWrite } from './queries.js';

const toGroup = (row: Pick<TodoGroupRow, 'id' | 'name' | 'color' | 'version'>): Group => ({
  id: row.id,
  name: row.name,
  color: row.color,
  version: row.version,
});

/**
 * The group before a write to it: null when it is not the caller's, 412 with it as it is now
 * when `ifMatch` names another version (read by groupToWrite, which locks it for the write).
 */
async function currentGroup(trx: Db, userId: number, id: number, ifMatch: string | undefined) {
  const row = await groupToWrite(trx, userId, id);
  if (row && !ifMatchAllows(ifMatch, row.version)) throw changedMeanwhile('group', toGroup(row));
  return row ?? null;
}

const duplicateName = (name: string) => conflict(`You already have a group named "${name}"`);

export function createGroupService(db: Kysely<Database>, clock: Clock) {
  return {
    async list(userId: number): Promise<Group[]> {
      return (await groupsOfUser(db, { userId })).map(toGroup);
    },

    async create(userId: number, input: GroupBody): Promise<Group> {
      const now = clock();
      const name = input.name.trim();
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('todo_groups')
            .values({
              user_id: userId,
              name,
              name_lower: name.toLowerCase(),
              color: input.color,
              created_at: now,
            })
            .returning(COLUMNS)
            .executeTakeFirstOrThrow();
          await recordEvents(trx, userId, ['groupsCreated'], now);
          return toGroup(row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateName(name);
        throw error;
      }
    },

    /** Null when the group does not exist or is not the caller's. */
    async update(
      userId: number,
      id: number,
      input: GroupBody,
      ifMatch?: string,
    ): Promise<Group | null> {
      const now = clock();
      const name = input.name.trim();
      try {
        return await db.transaction().execute(async (trx) => {
          if (!(await currentGroup(trx, userId, id, ifMatch))) return null;
          const row = await trx
            .updateTable('todo_groups')
            .set({ name, name_lower: name.toLowerCase(), color: input.color, version: nextVersion })
            .where('id', '=', id)
            .where('user_id', '=', userId)
            .returning(COLUMNS)
            .executeTakeFirst();
          if (!row) return null;
          await recordEvents(trx, userId, ['groupsUpdated'], now);
          return toGroup(row);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateName(name);
        throw error;
      }
    },

    /** Its todos stay, ungrouped, each with a new version. */
    async remove(userId: number, id: number, ifMatch?: string): Promise<boolean> {
      const now = clock();
      return db.transaction().execute(async (trx) => {
        if (!(await currentGroup(trx, userId, id, ifMatch))) return false;
        // Written here rather than left to the foreign key's set null, which no version follows.
        await trx
          .updateTable('todos')
          .set({ group_id: null, updated_at: now, version: nextVersion })
          .where('user_id', '=', userId)
          .where('group_id', '=', id)
          .execute();
        const result = await trx
          .deleteFrom('todo_groups')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await recordEvents(trx, userId, ['groupsDeleted'], now);
        return true;
      });
    },
  };
}
