import { STATISTIC_EVENTS, statisticsApi } from '@tally/contract';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../db/migrate.js';
import { apiClient } from '../test/api-client.js';
import {
  createTestApp,
  createTestDatabase,
  registerUser,
  type TestContext,
} from '../test/helpers.js';
import { addDays } from '@tally/contract/dates';
import { dateInZone, startOfDay } from '../shared/calendar.js';
import { recordEvents } from './record-events.js';

/**
 * The roll-ups (statistic_totals, statistic_hours; docs/decisions/030-statistics-rollups.md) must give exactly what
 * counting the event log gives, in zones whose midnight is on a UTC hour (roll-up path) and in
 * zones where it is not (event path).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const NOW = Date.parse('2026-06-15T12:34:56Z');
const TYPES = [
  'todosCreated',
  'todosCompleted',
  'groupsCreated',
  'logins',
  'todosDeleted',
] as const;

/** Events spread over 40 days at irregular instants, written as the services write them. */
async function seedEvents(userId: number) {
  const instants: { type: (typeof TYPES)[number]; at: number }[] = [];
  for (let i = 0; i < 400; i++) {
    const at = NOW - 40 * 86_400_000 + Math.floor(((i * 7919) % 400) * 8_640_000 + i * 1_337);
    instants.push({ type: TYPES[i % TYPES.length] as (typeof TYPES)[number], at });
  }
  for (const { type, at } of instants) {
    await recordEvents(ctx.app.db, userId, [type], Math.min(at, NOW));
  }
}

async function countFromLog(userId: number, from: number, to: number) {
  const rows = await ctx.app.db
    .selectFrom('statistic_events')
    .select(['type', 'occurred_at'])
    .where('user_id', '=', userId)
    .where('occurred_at', '>=', from)
    .where('occurred_at', '<', to)
    .execute();
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.type] = (counts[row.type] ?? 0) + 1;
  return counts;
}

describe('statistics roll-ups', () => {
  it('answer total, recent and since exactly as the event log does, in every kind of zone', async () => {
    ctx.clock.current = NOW;
    const { id, ...user } = await registerUser(ctx.app);
    await seedEvents(id);
    const call = apiClient(ctx.app, user);
    const headers = (zone: string) => ({ 'x-time-zone': zone });

    const total = (await call(statisticsApi.total, { headers: headers('UTC') })).expectBody(200);
    const all = await countFromLog(id, 0, Number.MAX_SAFE_INTEGER);
    for (const type of STATISTIC_EVENTS) expect(total[type], type).toBe(all[type] ?? 0);

    // Berlin and New York: midnights on UTC hours. Kolkata (+5:30), Kathmandu (+5:45): not.
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu']) {
      const today = dateInZone(NOW, zone);
      const recent = (
        await call(statisticsApi.recent, { query: { days: 30 }, headers: headers(zone) })
      ).expectBody(200);
      expect(recent).toHaveLength(30);
      for (const [i, day] of recent.entries()) {
        const date = addDays(today, -i);
        expect(day.date).toBe(date);
        const log = await countFromLog(
          id,
          startOfDay(date, zone),
          startOfDay(addDays(date, 1), zone),
        );
        for (const type of ['todosCreated', 'todosCompleted', 'groupsCreated', 'logins'] as const) {
          expect(day[type], `${zone} ${date} ${type}`).toBe(log[type] ?? 0);
        }
      }
      const since = addDays(today, -20);
      const answer = (
        await call(statisticsApi.since, { query: { since }, headers: headers(zone) })
      ).expectBody(200);
      const log = await countFromLog(id, startOfDay(since, zone), Number.MAX_SAFE_INTEGER);
      for (const type of TYPES) expect(answer[type], `${zone} since ${type}`).toBe(log[type] ?? 0);
    }
  });

  it('are filled from the events recorded before the migration', async () => {
    const database = await createTestDatabase({ ownDatabase: true });
    try {
      const { db, dialect } = database.handle;
      // createTestDatabase migrated to the latest: go back to 0001 and forward again.
      const all = migrations(dialect);
      const pgSchema = await currentSchema(database.handle);
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => all },
        ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
      });
      const down = await migrator.migrateTo('0001-initial');
      expect(down.error).toBeUndefined();
      const { id } = await db
        .insertInto('users')
        .values({
          username: 'legacy',
          username_lower: 'legacy',
          email: 'legacy@example.com',
          email_lower: 'legacy@example.com',
          password_hash: null,
          google_subject: null,
          created_at: NOW,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const events = [
        { type: 'todosCreated', at: NOW - 3_600_000 },
        { type: 'todosCreated', at: NOW - 3_599_000 },
        { type: 'logins', at: NOW },
        { type: 'tokensGenerated', at: NOW },
      ];
      await db
        .insertInto('statistic_events')
        .values(events.map((e) => ({ user_id: id, type: e.type, occurred_at: e.at })))
        .execute();
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();

      const totals = await db
        .selectFrom('statistic_totals')
        .select(['type', 'count'])
        .where('user_id', '=', id)
        .orderBy('type')
        .execute();
      expect(totals.map((t) => [t.type, Number(t.count)])).toEqual([
        ['logins', 1],
        ['todosCreated', 2],
        ['tokensGenerated', 1],
      ]);
      const hours = await db
        .selectFrom('statistic_hours')
        .select(['hour', 'todos_created', 'logins'])
        .where('user_id', '=', id)
        .orderBy('hour')
        .execute();
      expect(hours.map((h) => [Number(h.hour), Number(h.todos_created), Number(h.logins)])).toEqual(
        [
          [Math.floor((NOW - 3_600_000) / 3_600_000), 2, 0],
          [Math.floor(NOW / 3_600_000), 0, 1],
        ],
      );
    } finally {
      await database.drop();
    }
  });
});

async function currentSchema(handle: { dialect: string; db: TestContext['app']['db'] }) {
  if (handle.dialect !== 'postgres') return undefined;
  const { sql } = await import('kysely');
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
    handle.db,
  );
  return rows[0]?.schema;
}
