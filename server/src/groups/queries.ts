import { preparedQuery, type Placeholders } from '../db/prepared.js';

/**
 * The group queries of the hot path, prepared because the benchmark measured them
 * (docs/decisions/042-prepared-queries.md, 091-data-access-modules.md); the service writes the
 * rest as plain Kysely.
 */

/** What a group answers with. */
export const COLUMNS = ['id', 'name', 'color', 'version'] as const;

/** The user's groups, newest first (the list). */
export const groupsOfUser = preparedQuery((db, p: Placeholders<{ userId: number }>) =>
  db
    .selectFrom('todo_groups')
    .select(COLUMNS)
    .where('user_id', '=', p('userId'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc'),
);
