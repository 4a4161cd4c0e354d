import type { Group, GroupBody } from '@tally/contract';
import type { Kysely } from 'kysely';
import type { Database, TodoGroupRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { conflict } from '../shared/errors.js';
import { isUniqueViolation } from '../shared/sql-errors.js';
import { recordEvents } from '../statistics/record-events.js';
import { COLUMNS, groupsOfUser } from './queries.js';

const toGroup = (row: Pick<TodoGroupRow, 'id' | 'name' | 'color'>): Group => ({
  id: row.id,
  name: row.name,
  color: row.color,
});

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
    async update(userId: number, id: number, input: GroupBody): Promise<Group | null> {
      const now = clock();
      const name = input.name.trim();
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx
            .updateTable('todo_groups')
            .set({ name, name_lower: name.toLowerCase(), color: input.color })
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

    /** Its todos stay, ungrouped (the foreign key sets their group to null). */
    async remove(userId: number, id: number): Promise<boolean> {
      const now = clock();
      return db.transaction().execute(async (trx) => {
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
