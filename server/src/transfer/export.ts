import {
  type AccountExport,
  EXPORT_VERSION,
  type ExportDay,
  type ExportTodo,
  STATISTIC_EVENTS,
  type StatisticEvent,
  type Todo,
  type TodoSorts,
  type TotalStatistics,
} from '@tally/contract';
import { type Kysely, sql } from 'kysely';
import { accountRow, iso, toAccount } from '../account/rows.js';
import type { Database } from '../db/schema.js';
import { tagsOfUserTodos } from '../shared/tags.js';
import { COLUMNS, toTodo } from '../todos/rows.js';

const DAY = 24 * 60 * 60_000;

/**
 * A todo as the export keeps it: the API's todo with its created time named as the export's other
 * times, and its last change. Its reminders go as `reminders` (version 4); `remindMinutesBefore`,
 * their first, the version and a calendar app's repeat rule stay out (the export's schema is
 * versioned apart from the API's todo).
 */
function exportedTodo(
  {
    created,
    remindMinutesBefore: _firstReminder,
    version: _version,
    customRepeat: _repeat,
    ...todo
  }: Todo,
  updatedAt: number,
): ExportTodo {
  return { ...todo, createdAt: created, updatedAt: iso(updatedAt) };
}

/** Everything the account owns, as the JSON export; null when the account is gone. */
export async function exportAccount(
  db: Kysely<Database>,
  now: number,
  userId: number,
): Promise<AccountExport | null> {
  const row = await accountRow(db, userId);
  if (!row) return null;
  const [groups, todos, completions, totals, daily, tags, tagsOf, sorts, filters] =
    await Promise.all([
      db
        .selectFrom('todo_groups')
        .select(['id', 'name', 'color', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('todos')
        .select([...COLUMNS, 'updated_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('todo_completions')
        .select(['todo_id', 'group_id', 'created_at', 'completed_at', 'due_date', 'on_time'])
        .where('user_id', '=', userId)
        .orderBy('completed_at')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('statistic_totals')
        .select(['type', 'count'])
        .where('user_id', '=', userId)
        .execute(),
      // The event log by UTC day: epoch ms divided by a day is an integer division on both.
      db
        .selectFrom('statistic_events')
        .select((eb) => [
          sql<number | string>`occurred_at / ${sql.lit(DAY)}`.as('day'),
          'type',
          eb.fn.countAll<number | string>().as('n'),
        ])
        .where('user_id', '=', userId)
        .groupBy([sql`occurred_at / ${sql.lit(DAY)}`, 'type'])
        .execute(),
      db
        .selectFrom('tags')
        .select(['id', 'name', 'color', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      tagsOfUserTodos(db, userId),
      db.selectFrom('users').select('todo_sorts').where('id', '=', userId).executeTakeFirst(),
      db
        .selectFrom('saved_filters')
        .select(['name', 'color', 'query', 'position'])
        .where('user_id', '=', userId)
        .orderBy('position')
        .orderBy('id')
        .execute(),
    ]);
  const zeroes = () =>
    Object.fromEntries(STATISTIC_EVENTS.map((event) => [event, 0])) as TotalStatistics;
  const isEvent = (type: string): type is StatisticEvent =>
    (STATISTIC_EVENTS as readonly string[]).includes(type);
  const totalCounts = zeroes();
  for (const total of totals)
    if (isEvent(total.type)) totalCounts[total.type] = Number(total.count);
  const days = new Map<number, ExportDay>();
  for (const entry of daily) {
    if (!isEvent(entry.type)) continue;
    const day = Number(entry.day);
    const record = days.get(day) ?? { date: iso(day * DAY).slice(0, 10), ...zeroes() };
    record[entry.type] = Number(entry.n);
    days.set(day, record);
  }
  return {
    version: EXPORT_VERSION,
    exportedAt: iso(now),
    account: toAccount(row),
    tags: tags.map((tag) => ({
      name: tag.name,
      color: tag.color,
      createdAt: iso(tag.created_at),
    })),
    groups: groups.map((g) => ({
      id: g.id,
      name: g.name,
      color: g.color,
      createdAt: iso(g.created_at),
    })),
    todos: todos.map((row) => exportedTodo(toTodo(row, tagsOf.get(row.id) ?? []), row.updated_at)),
    todoSorts: sorts?.todo_sorts ? (JSON.parse(sorts.todo_sorts) as TodoSorts) : {},
    filters,
    completions: completions.map((c) => ({
      todoId: c.todo_id,
      groupId: c.group_id,
      createdAt: iso(c.created_at),
      completedAt: iso(c.completed_at),
      dueDate: c.due_date,
      onTime: c.on_time === null ? null : c.on_time === 1,
    })),
    statistics: {
      totals: totalCounts,
      daily: [...days.entries()].sort(([a], [b]) => a - b).map(([, record]) => record),
    },
  };
}
