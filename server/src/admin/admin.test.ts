import { accountApi, adminApi, authApi, contract, tokensApi, todosApi } from '@tally/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../test/api-client.js';
import { davCredentials } from '../test/caldav.js';
import {
  createTestApp,
  refreshCookieOf,
  registerUser,
  type TestContext,
  type TestUser,
} from '../test/helpers.js';
import { type LocalSmtp, startLocalSmtp } from '../test/local-smtp.js';
import { fillPath, hasParams, routeCollector } from '../test/security.js';

/**
 * The admin page's API: only an operator reaches it (403 for everyone else on every admin route
 * of the route table), each action lands in the audit log, and a disabled account can neither
 * sign in nor use its sessions, personal tokens or CalDAV app passwords.
 */

let ctx: TestContext;
let smtp: LocalSmtp;
const routes = routeCollector();
let operator: TestUser;
let member: TestUser;

beforeAll(async () => {
  smtp = await startLocalSmtp();
  ctx = await createTestApp({
    onRoute: routes.onRoute,
    config: { smtpUrl: smtp.url, mailFrom: 'Tally <tally@example.com>' },
  });
  // The first account of a database is its operator.
  operator = await registerUser(ctx.app, 'the_operator');
  member = await registerUser(ctx.app);
  await ctx.app.settleEmail();
  // Their verification links, read so the test's own mails are the next ones.
  await smtp.take(operator.email);
  await smtp.take(member.email);
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const asOperator = () => apiClient(ctx.app, operator);
const login = (user: TestUser) =>
  apiClient(ctx.app, null)(authApi.login, {
    body: { username: user.username, password: user.password },
  });

describe('who is the operator', () => {
  it('is the first account, as GET /api/account says', async () => {
    expect((await asOperator()(accountApi.get)).expectBody(200).operator).toBe(true);
    expect((await apiClient(ctx.app, member)(accountApi.get)).expectBody(200).operator).toBe(false);
  });

  it('refuses every admin route of the route table to a member (403), a personal token of the operator (403) and no one (401)', async () => {
    // HEAD is Fastify's own copy of each GET: swept with the rest.
    const adminRoutes = routes.entries().filter((entry) => entry.url.startsWith('/api/admin'));
    // The sweep covers what the server registered, and that is exactly the contract's list.
    expect(
      adminRoutes
        .filter((r) => r.method !== 'HEAD')
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual(
      Object.values(contract.admin)
        .map((endpoint) => `${endpoint.method} ${endpoint.path}`)
        .sort(),
    );
    const token = (
      await asOperator()(tokensApi.create, {
        body: { name: 'Script', scope: 'read-write', expiresInDays: null },
      })
    ).expectBody(201).token;
    const before = (await asOperator()(adminApi.auditLog)).expectBody(200).length;
    for (const route of adminRoutes) {
      const url = hasParams(route.url) ? fillPath(route.url, { id: member.id }) : route.url;
      const send = (authorization?: string) =>
        ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers: authorization ? { authorization } : {},
        });
      const byMember = await send(`Bearer ${member.token}`);
      expect(byMember.statusCode, `${route.method} ${route.url}`).toBe(403);
      if (route.method !== 'HEAD') {
        expect(byMember.json()).toEqual({
          error: 'Only an operator may use the admin page',
          code: 'operator_only',
        });
      }
      expect((await send(`Bearer ${token}`)).statusCode, `token ${route.url}`).toBe(403);
      expect((await send()).statusCode, `anonymous ${route.url}`).toBe(401);
    }
    // Nothing was done: the member is still enabled and the log has no new entry.
    expect((await login(member)).statusCode).toBe(200);
    expect((await asOperator()(adminApi.auditLog)).expectBody(200)).toHaveLength(before);
  });
});

describe('the operator', () => {
  it('lists the accounts with what the page shows', async () => {
    await apiClient(ctx.app, member)(todosApi.create, { body: { title: 'One' } });
    await apiClient(ctx.app, member)(todosApi.create, { body: { title: 'Two' } });
    const users = (await asOperator()(adminApi.users)).expectBody(200);
    const row = users.find((user) => user.username === member.username);
    expect(row).toMatchObject({
      id: member.id,
      email: member.email,
      emailVerified: false,
      twoFactor: false,
      todoCount: 2,
      disabled: false,
      operator: false,
    });
    expect(row?.lastSeenAt).not.toBeNull();
    expect(users.find((user) => user.username === 'the_operator')?.operator).toBe(true);
  });

  it('disables an account: no sign-in, no session, no token, no CalDAV; enabling gives sign-in back', async () => {
    const victim = await registerUser(ctx.app);
    const dav = await davCredentials(ctx.app, victim);
    const pat = (
      await apiClient(ctx.app, victim)(tokensApi.create, {
        body: { name: 'Script', scope: 'read', expiresInDays: null },
      })
    ).expectBody(201).token;
    expect(
      (
        await ctx.app.inject({
          method: 'PROPFIND',
          url: dav.home,
          headers: { authorization: dav.basic, depth: '0' },
        })
      ).statusCode,
    ).toBe(207);

    const disabled = (
      await asOperator()(adminApi.disable, { params: { id: victim.id } })
    ).expectBody(200);
    expect(disabled.disabled).toBe(true);

    const signIn = await login(victim);
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json()).toEqual({
      error: 'This account is disabled: ask the operator of this Tally to enable it',
    });
    // A wrong password says only that it is wrong.
    const wrong = await apiClient(ctx.app, null)(authApi.login, {
      body: { username: victim.username, password: 'not the password at all' },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await apiClient(ctx.app, victim)(todosApi.list)).statusCode).toBe(401);
    const refresh = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: victim.refreshCookie },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await apiClient(ctx.app, { token: pat })(todosApi.list)).statusCode).toBe(401);
    const propfind = await ctx.app.inject({
      method: 'PROPFIND',
      url: dav.home,
      headers: { authorization: dav.basic, depth: '0' },
    });
    expect(propfind.statusCode).toBe(401);

    expect(
      (await asOperator()(adminApi.enable, { params: { id: victim.id } })).expectBody(200).disabled,
    ).toBe(false);
    const again = await login(victim);
    expect(again.statusCode).toBe(200);
    expect(refreshCookieOf(again)).toMatch(/^tally_refresh=/);
    expect((await apiClient(ctx.app, { token: pat })(todosApi.list)).statusCode).toBe(200);

    const log = (await asOperator()(adminApi.auditLog)).expectBody(200);
    expect(log.slice(0, 2).map(({ actor, action, target }) => ({ actor, action, target }))).toEqual(
      [
        { actor: 'the_operator', action: 'enable', target: victim.username },
        { actor: 'the_operator', action: 'disable', target: victim.username },
      ],
    );
  });

  it('cannot disable or delete themself (409), and a missing account is 404', async () => {
    const self = await asOperator()(adminApi.disable, { params: { id: operator.id } });
    expect(self.statusCode).toBe(409);
    expect((await asOperator()(adminApi.remove, { params: { id: operator.id } })).statusCode).toBe(
      409,
    );
    expect((await asOperator()(adminApi.enable, { params: { id: 999_999 } })).statusCode).toBe(404);
    const bad = await asOperator().unchecked(adminApi.enable, { params: { id: 'abc' } });
    expect(bad.statusCode).toBe(400);
  });

  it('ends sessions, resends verification, deletes an account, sends a test e-mail, all logged', async () => {
    const other = await registerUser(ctx.app);
    await ctx.app.settleEmail();
    await smtp.take(other.email);
    const ended = (
      await asOperator()(adminApi.endSessions, { params: { id: other.id } })
    ).expectBody(200);
    expect(ended.ended).toBe(1);
    expect((await apiClient(ctx.app, other)(todosApi.list)).statusCode).toBe(401);

    const resent = await asOperator()(adminApi.resendVerification, { params: { id: other.id } });
    expect(resent.statusCode).toBe(202);
    expect((await smtp.take(other.email)).subject).toBe('Confirm your e-mail address for Tally');

    const test = (await asOperator()(adminApi.testEmail)).expectBody(200);
    expect(test.to).toBe(operator.email);
    expect((await smtp.take(operator.email)).subject).toBe('Tally test e-mail');

    const removed = await asOperator()(adminApi.remove, { params: { id: other.id } });
    expect(removed.statusCode).toBe(204);
    expect((await login(other)).statusCode).toBe(401);

    const log = (await asOperator()(adminApi.auditLog)).expectBody(200);
    expect(log.slice(0, 4).map(({ action, target }) => [action, target])).toEqual([
      ['delete', other.username],
      ['test-email', null],
      ['resend-verification', other.username],
      ['end-sessions', other.username],
    ]);
  });

  it('sees the health of the database, mail, jobs and backups; a failed test e-mail is a 503 that names no setting', async () => {
    const health = (await asOperator()(adminApi.health)).expectBody(200);
    expect(health.database.ok).toBe(true);
    expect(health.mail).toEqual({ ok: true, detail: 'The SMTP server accepts a connection' });
    expect(health.redis).toBeNull();
    expect(health.imap).toBeNull();
    expect(health.jobs.lagSeconds).toBe(0);
    expect(health.backup).toMatchObject({ schedule: null, keep: 7 });
    expect(JSON.stringify(health)).not.toContain('smtp-test-password');

    smtp.refuse = true;
    try {
      const failed = await asOperator()(adminApi.testEmail);
      expect(failed.statusCode).toBe(503);
      expect(failed.json<{ error: string }>().error).toMatch(/^The SMTP server did not accept/);
      expect(failed.body).not.toContain('smtp-test-password');
    } finally {
      smtp.refuse = false;
    }
  });
});
