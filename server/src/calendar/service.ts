import { randomBytes } from 'node:crypto';
import type { CalendarFeed } from '@tally/contract';
import { FilterError, parseFilter, wallClockIn, type Filter } from '@tally/contract/filter-query';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { filterCondition } from '../shared/filter-sql.js';
import { tagsOfUserTodos } from '../shared/tags.js';
import { TODOS_COLUMNS, toTodo } from '../todos/rows.js';
import type { FeedEvent } from './ics.js';

/** 32 random bytes, base64url: the whole secret of a feed URL. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const feedPath = (secret: string) => `/api/calendar/${secret}.ics`;

const toFeed = (row: { secret: string; time_zone: string; created_at: number }): CalendarFeed => ({
  path: feedPath(row.secret),
  timeZone: row.time_zone,
  createdAt: new Date(row.created_at).toISOString(),
});

export interface FeedOwner {
  userId: number;
  username: string;
  timeZone: string;
  contentHash: string | null;
  contentChangedAt: number | null;
  /** A saved filter's own feed: its name and query; null for the account's feed. */
  filter: { name: string; query: string } | null;
}

/**
 * The private calendar feed (docs/product.md, Calendar feed). The secret is a random id kept as
 * it is, so Settings can show the URL again: it reads no more than the database itself holds
 * (docs/decisions/050-api-tokens-and-calendar-feed.md).
 */
export function createCalendarService({ db, clock }: { db: Kysely<Database>; clock: Clock }) {
  async function get(userId: number): Promise<CalendarFeed | null> {
    const row = await db
      .selectFrom('calendar_feeds')
      .select(['secret', 'time_zone', 'created_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toFeed(row) : null;
  }

  /** A new secret (the old URL stops working) and the caller's zone for timed todos. */
  async function regenerate(userId: number, timeZone: string): Promise<CalendarFeed> {
    const row = {
      secret: randomBytes(32).toString('base64url'),
      time_zone: timeZone,
      created_at: clock(),
      content_hash: null,
      content_changed_at: null,
    };
    await db
      .insertInto('calendar_feeds')
      .values({ user_id: userId, ...row })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet(row))
      .execute();
    return toFeed(row);
  }

  async function remove(userId: number): Promise<void> {
    await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
  }

  /** The feed's account, or null for an unknown (or ill-formed) secret. */
  async function ownerOf(secret: string): Promise<FeedOwner | null> {
    if (!SECRET_PATTERN.test(secret)) return null;
    const row = await db
      .selectFrom('calendar_feeds')
      .innerJoin('users', 'users.id', 'calendar_feeds.user_id')
      .select([
        'users.id',
        'users.username',
        'calendar_feeds.time_zone',
        'calendar_feeds.content_hash',
        'calendar_feeds.content_changed_at',
      ])
      .where('calendar_feeds.secret', '=', secret)
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst();
    if (row) {
      return {
        userId: row.id,
        username: row.username,
        timeZone: row.time_zone,
        contentHash: row.content_hash,
        contentChangedAt: row.content_changed_at,
        filter: null,
      };
    }
    const filter = await db
      .selectFrom('saved_filters')
      .innerJoin('users', 'users.id', 'saved_filters.user_id')
      .select([
        'users.id',
        'users.username',
        'saved_filters.name',
        'saved_filters.query',
        'saved_filters.feed_time_zone',
        'saved_filters.feed_content_hash',
        'saved_filters.feed_changed_at',
      ])
      .where('saved_filters.feed_secret', '=', secret)
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst();
    return filter
      ? {
          userId: filter.id,
          username: filter.username,
          timeZone: filter.feed_time_zone ?? 'UTC',
          contentHash: filter.feed_content_hash,
          contentChangedAt: filter.feed_changed_at,
          filter: { name: filter.name, query: filter.query },
        }
      : null;
  }

  /**
   * A saved filter's query read for its feed: the owner's day in the feed's zone and their
   * groups. Null when it cannot be read now (a group renamed since): the feed is then empty.
   */
  async function feedFilter(owner: FeedOwner): Promise<Filter | null> {
    if (!owner.filter) return null;
    const groups = await db
      .selectFrom('todo_groups')
      .select(['id', 'name'])
      .where('user_id', '=', owner.userId)
      .execute();
    const { today, time } = wallClockIn(clock(), owner.timeZone);
    try {
      return parseFilter(owner.filter.query, {
        today,
        time,
        timeZone: owner.timeZone,
        groups,
      });
    } catch (error) {
      if (error instanceof FilterError) return null;
      throw error;
    }
  }

  /**
   * The open todos with a due date, soonest first, as events with UIDs on `host`; of a saved
   * filter's feed, those its filter shows (`filter`; `false`: a filter it cannot read, none).
   */
  async function eventsOf(
    userId: number,
    host: string,
    filter: Filter | null | false = null,
  ): Promise<FeedEvent[]> {
    if (filter === false) return [];
    const [rows, tags] = await Promise.all([
      db
        .selectFrom('todos')
        .leftJoin('todo_groups', 'todo_groups.id', 'todos.group_id')
        .select([...TODOS_COLUMNS, 'todos.updated_at', 'todo_groups.name as group_name'])
        .where('todos.user_id', '=', userId)
        .where('todos.completed', '=', 0)
        .where('todos.due_date', 'is not', null)
        .$if(filter !== null, (select) =>
          select.where((eb) => filterCondition(eb, filter as Filter)),
        )
        .orderBy('todos.due_date')
        .orderBy('todos.id')
        .execute(),
      tagsOfUserTodos(db, userId),
    ]);
    return rows.map((row) => {
      const todo = toTodo(row, tags.get(row.id) ?? []);
      return {
        uid: `todo-${todo.id}@${host}`,
        tags: todo.tags,
        priority: todo.priority,
        relatedTo: todo.parentId === null ? null : `todo-${todo.parentId}@${host}`,
        modifiedAt: row.updated_at,
        date: todo.dueDate as string,
        startDate: todo.startDate,
        time: todo.dueTime,
        repeat: todo.repeat,
        summary: todo.title,
        description: todo.description,
        category: row.group_name,
      };
    });
  }

  /**
   * Notes a feed that differs from the last one served: its version, and now as its Last-Modified.
   * Written only when the content changes, never per fetch.
   */
  async function noteContent(secret: string, version: string): Promise<number> {
    const now = clock();
    await db
      .updateTable('calendar_feeds')
      .set({ content_hash: version, content_changed_at: now })
      .where('secret', '=', secret)
      .execute();
    await db
      .updateTable('saved_filters')
      .set({ feed_content_hash: version, feed_changed_at: now })
      .where('feed_secret', '=', secret)
      .execute();
    return now;
  }

  return { get, regenerate, remove, ownerOf, feedFilter, eventsOf, noteContent };
}
