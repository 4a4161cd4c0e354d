import type { AdminAction, AdminHealth, AdminUser, AuditEntry } from '@tally/contract';
import { AUDIT_LOG_PAGE } from '@tally/contract';
import { sql, type Kysely } from 'kysely';
import { endSessionsOf } from '../auth/end-access.js';
import type { BackupConfig } from '../config.js';
import { latestBackup } from '../db/backup.js';
import type { Database, Db } from '../db/schema.js';
import { INBOX_LEASE, type InboxStatus } from '../shared/inbox-status.js';
import type { Clock } from '../shared/clock.js';

/** Who acts on the admin page: the signed-in operator. */
export interface Actor {
  id: number;
  username: string;
}

const iso = (time: number) => new Date(time).toISOString();

/**
 * What the admin page reads and does (docs/decisions/131-operator-and-admin-page.md). Each
 * change and its audit log entry are written in one transaction: no action without its entry.
 */
export function createAdminService({
  db,
  clock,
  deleteAccount,
}: {
  db: Kysely<Database>;
  clock: Clock;
  deleteAccount: (userId: number) => Promise<void>;
}) {
  const userQuery = () =>
    db.selectFrom('users as u').select((eb) => [
      'u.id',
      'u.username',
      'u.email',
      'u.created_at',
      'u.email_verified_at',
      'u.disabled_at',
      'u.operator',
      eb
        .selectFrom('todos as t')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('t.user_id', '=', 'u.id')
        .as('todo_count'),
      eb
        .selectFrom('two_factor as f')
        .select('f.user_id')
        .whereRef('f.user_id', '=', 'u.id')
        .where('f.enabled_at', 'is not', null)
        .as('two_factor'),
      eb
        .selectFrom('sessions as s')
        .select((s) => s.fn.max('s.last_used_at').as('m'))
        .whereRef('s.user_id', '=', 'u.id')
        .as('session_seen'),
      eb
        .selectFrom('api_tokens as a')
        .select((a) => a.fn.max('a.last_used_at').as('m'))
        .whereRef('a.user_id', '=', 'u.id')
        .as('token_seen'),
      eb
        .selectFrom('passkeys as p')
        .select((p) => p.fn.max('p.last_used_at').as('m'))
        .whereRef('p.user_id', '=', 'u.id')
        .as('passkey_seen'),
    ]);
  type Row = Awaited<ReturnType<ReturnType<typeof userQuery>['executeTakeFirstOrThrow']>>;

  const toUser = (row: Row): AdminUser => {
    const seen = [row.session_seen, row.token_seen, row.passkey_seen]
      .filter((time) => time !== null && time !== undefined)
      .map(Number);
    return {
      id: row.id,
      username: row.username,
      email: row.email,
      createdAt: iso(row.created_at),
      lastSeenAt: seen.length > 0 ? iso(Math.max(...seen)) : null,
      emailVerified: row.email_verified_at !== null,
      twoFactor: row.two_factor !== null && row.two_factor !== undefined,
      todoCount: Number(row.todo_count ?? 0),
      disabled: row.disabled_at !== null,
      operator: row.operator === 1,
    };
  };

  const audit = (trx: Db, actor: Actor, action: AdminAction, target: string | null) =>
    trx
      .insertInto('audit_log')
      .values({
        at: clock(),
        actor_id: actor.id,
        actor_name: actor.username,
        action,
        target_name: target,
      })
      .execute();

  async function user(id: number): Promise<AdminUser | null> {
    const row = await userQuery().where('u.id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  return {
    user,

    async users(): Promise<AdminUser[]> {
      return (await userQuery().orderBy('u.username_lower').execute()).map(toUser);
    },

    /** Whether the account may use the admin page now (an operator, not disabled). */
    async isOperator(id: number): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select(['operator', 'disabled_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.operator === 1 && row.disabled_at === null;
    },

    /** Sets or clears the disabled mark; disabling ends every session. Null: no such account. */
    async setDisabled(actor: Actor, id: number, disabled: boolean): Promise<AdminUser | null> {
      const found = await user(id);
      if (!found) return null;
      const now = clock();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ disabled_at: disabled ? now : null })
          .where('id', '=', id)
          .execute();
        if (disabled) await endSessionsOf(trx, id, now, null);
        await audit(trx, actor, disabled ? 'disable' : 'enable', found.username);
      });
      return user(id);
    },

    async remove(actor: Actor, id: number): Promise<boolean> {
      const found = await user(id);
      if (!found) return false;
      await deleteAccount(id);
      await audit(db, actor, 'delete', found.username);
      return true;
    },

    async endSessions(actor: Actor, id: number): Promise<number | null> {
      const found = await user(id);
      if (!found) return null;
      return db.transaction().execute(async (trx) => {
        const ended = await endSessionsOf(trx, id, clock(), null);
        await audit(trx, actor, 'end-sessions', found.username);
        return ended;
      });
    },

    /** Writes an action done outside the database (an e-mail sent) to the audit log. */
    note: (actor: Actor, action: AdminAction, target: string | null) =>
      audit(db, actor, action, target),

    async auditLog(): Promise<AuditEntry[]> {
      const rows = await db
        .selectFrom('audit_log')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(AUDIT_LOG_PAGE)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        at: iso(row.at),
        actor: row.actor_name,
        action: row.action as AdminAction,
        target: row.target_name,
      }));
    },

    /**
     * The IMAP line: the lease in job_leases is shared by every process, the connection, last
     * mail and last error are known only to the process that answers.
     */
    async imapHealth(status: InboxStatus): Promise<NonNullable<AdminHealth['imap']>> {
      const now = clock();
      const lease = await db
        .selectFrom('job_leases')
        .select(['holder', 'lease_until'])
        .where('name', '=', INBOX_LEASE)
        .executeTakeFirst()
        .catch(() => undefined);
      const leaseHeld = lease !== undefined && Number(lease.lease_until) > now;
      const here = leaseHeld && status.holder !== null && lease?.holder === status.holder;
      return {
        ok: leaseHeld && (!here || status.connected),
        leaseHeld,
        here,
        connected: status.connected,
        lastMailAt: status.lastMailAt === null ? null : iso(status.lastMailAt),
        lastError: status.lastError
          ? { at: iso(status.lastError.at), message: status.lastError.message }
          : null,
      };
    },

    /** The database's and the background work's part of the health; the routes add the rest. */
    async health(
      dialect: string,
      config: { dataDir: string; backup: BackupConfig },
    ): Promise<Pick<AdminHealth, 'database' | 'jobs' | 'backup'>> {
      const last = latestBackup(config);
      const backup = {
        schedule: config.backup.schedule,
        keep: config.backup.keep,
        last: last ? { name: last.name, at: iso(last.at), bytes: last.bytes } : null,
      };
      const now = clock();
      try {
        await sql`select 1`.execute(db);
        const oldestDue = await db
          .selectFrom('reminders')
          .select((eb) => eb.fn.min('fire_at').as('m'))
          .where('sent_at', 'is', null)
          .where('fire_at', '<=', now)
          .executeTakeFirst();
        const jobs = await db.selectFrom('job_leases').selectAll().orderBy('name').execute();
        const due =
          oldestDue?.m === null || oldestDue?.m === undefined ? null : Number(oldestDue.m);
        return {
          database: { ok: true, detail: dialect },
          jobs: {
            lagSeconds: due === null ? 0 : Math.max(0, Math.floor((now - due) / 1000)),
            background: jobs.map((job) => ({
              name: job.name,
              lastRunAt: job.last_run_at === null ? null : iso(job.last_run_at),
              runs: job.runs,
            })),
          },
          backup,
        };
      } catch (error) {
        return {
          database: { ok: false, detail: `${dialect}: ${(error as Error).message}` },
          jobs: { lagSeconds: 0, background: [] },
          backup,
        };
      }
    },
  };
}
