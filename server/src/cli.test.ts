import { apiClient } from './test/api-client.js';
import { accountApi, adminApi, authApi, todosApi } from '@tally/contract';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import {
  createTestApp,
  pgUrl,
  refreshCookieOf,
  registerUser,
  testConfig,
  type TestContext,
} from './test/helpers.js';

/** The `tally` command line against a real database, the one the app in the test serves. */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  ctx.clock.current = Date.now();
});
afterAll(async () => ctx.close());

async function tally(argv: string[], stdin = '') {
  let out = '';
  let err = '';
  const code = await runCli(
    argv,
    {
      stdin: Readable.from(stdin ? [stdin] : []),
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
    },
    {
      config: testConfig({ dataDir: ctx.database.dataDir, publicUrl: 'https://tally.example' }),
      database: ctx.database.handle,
    },
  );
  return { code, out, err };
}

const login = (username: string, password: string) =>
  apiClient(ctx.app, null)(authApi.login, { body: { username, password } });

describe('tally user', () => {
  it('creates an account with a generated password that signs in, and lists it', async () => {
    const created = await tally(['user', 'create', 'operator_made', 'made@example.com']);
    expect(created.code).toBe(0);
    const password = /Password: (\S+)/.exec(created.out)?.[1] as string;
    expect(password.length).toBeGreaterThanOrEqual(8);
    expect((await login('operator_made', password)).statusCode).toBe(200);
    const listed = await tally(['user', 'list']);
    expect(listed.out).toMatch(/operator_made\tmade@example.com\tunverified, password, 1 session/);
  });

  it('lists the accounts linked to the single sign-on provider', async () => {
    expect((await tally(['user', 'create', 'sso_linked', 'sso@example.com'])).code).toBe(0);
    await ctx.database.handle.db
      .updateTable('users')
      .set({ oidc_issuer: 'https://idp.example', oidc_subject: 'sub-1' })
      .where('username', '=', 'sso_linked')
      .execute();
    expect((await tally(['user', 'list'])).out).toMatch(
      /sso_linked\tsso@example.com\tunverified, password, single sign-on, 0 sessions/,
    );
  });

  it('makes the generated password one-time: the API refuses everything but changing it, once', async () => {
    const created = await tally(['user', 'create', 'one_timer', 'one.timer@example.com']);
    expect(created.out).toMatch(/one-time/);
    const password = /Password: (\S+)/.exec(created.out)?.[1] as string;
    const signedIn = await login('one_timer', password);
    expect(signedIn.statusCode).toBe(200);
    const answer = signedIn.json<{ accessToken: string; passwordChangeRequired?: boolean }>();
    expect(answer.passwordChangeRequired).toBe(true);
    const call = apiClient(ctx.app, { token: answer.accessToken });
    const refused = await call(todosApi.list);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: 'Choose a new password first: this one was set by the operator for one sign-in only',
      code: 'password_change_required',
    });
    const write = await call(todosApi.create, { body: { title: 'x' } });
    expect(write.statusCode).toBe(403);
    expect((await call(accountApi.get)).statusCode).toBe(200);
    // A renewed session is still held to it, and says so.
    const renewed = await apiClient(ctx.app, null)(authApi.refresh, {
      headers: { cookie: refreshCookieOf(signedIn) },
    });
    expect(renewed.json()).toMatchObject({ passwordChangeRequired: true });

    const changed = await call(accountApi.changePassword, {
      body: { currentPassword: password, newPassword: 'chosen by me at last' },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await call(todosApi.list)).statusCode).toBe(200);
    const next = await login('one_timer', 'chosen by me at last');
    expect(next.json()).toEqual({ accessToken: expect.any(String) as string });
  });

  it('creates with a password from standard input, and refuses bad or taken names', async () => {
    const withPassword = await tally(
      ['user', 'create', 'piped_user', 'piped@example.com', '--password-stdin'],
      'a long enough password\n',
    );
    expect(withPassword).toMatchObject({ code: 0 });
    expect(withPassword.out).not.toMatch(/Password:/);
    expect((await login('piped_user', 'a long enough password')).statusCode).toBe(200);
    const taken = await tally(['user', 'create', 'PIPED_USER', 'other@example.com']);
    expect(taken).toMatchObject({ code: 1, err: 'The username PIPED_USER is taken\n' });
    const bad = await tally(['user', 'create', 'has space', 'x@example.com']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^username may only contain letters, digits/);
    expect((await tally(['user', 'create', 'only_name'])).code).toBe(2);
  });

  it('prints a one-time reset link that the API accepts, or sets a password from stdin', async () => {
    const user = await registerUser(ctx.app);
    const linked = await tally(['user', 'reset-password', user.username]);
    expect(linked.code).toBe(0);
    const token = /^https:\/\/tally\.example\/reset-password#token=([\w-]+)\n$/.exec(
      linked.out,
    )?.[1];
    expect(token).toBeTruthy();
    const confirm = await apiClient(ctx.app, null).unchecked(authApi.resetPassword, {
      body: { token, password: 'chosen by the user' },
    });
    expect(confirm.statusCode).toBe(204);
    expect((await login(user.username, 'chosen by the user')).statusCode).toBe(200);

    const set = await tally(
      ['user', 'reset-password', user.username, '--password-stdin'],
      'set by the operator\n',
    );
    expect(set.code).toBe(0);
    expect((await login(user.username, 'set by the operator')).statusCode).toBe(200);
    // The old session ended with the new password.
    expect(
      (
        await apiClient(ctx.app, null)(todosApi.list, {
          headers: { authorization: `Bearer ${user.token}` },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await tally(['user', 'reset-password', user.username, '--password-stdin'], 'short')).code,
    ).toBe(1);
  });

  it('refuses a common password for a new account and as a new password', async () => {
    const created = await tally(
      ['user', 'create', 'common_pw', 'common@example.com', '--password-stdin'],
      '12345678\n',
    );
    expect(created).toMatchObject({
      code: 1,
      err: 'The password is too common - choose another\n',
    });
    expect((await tally(['user', 'list'])).out).not.toMatch(/common_pw/);
    const user = await registerUser(ctx.app);
    const set = await tally(
      ['user', 'reset-password', user.username, '--password-stdin'],
      'iloveyou\n',
    );
    expect(set).toMatchObject({ code: 1, err: 'The password is too common - choose another\n' });
    expect((await login(user.username, user.password)).statusCode).toBe(200);
  });

  it('refuses a password built on the username or the name Tally', async () => {
    const refusal =
      'The password is built on the username, the e-mail address or the name Tally - choose another\n';
    const created = await tally(
      ['user', 'create', 'named_pw', 'named@example.com', '--password-stdin'],
      'named_pw2026\n',
    );
    expect(created).toMatchObject({ code: 1, err: refusal });
    expect((await tally(['user', 'list'])).out).not.toMatch(/named_pw/);
    const user = await registerUser(ctx.app);
    const set = await tally(
      ['user', 'reset-password', user.username, '--password-stdin'],
      'tallytally\n',
    );
    expect(set).toMatchObject({ code: 1, err: refusal });
    expect((await login(user.username, user.password)).statusCode).toBe(200);
  });

  it('verifies an address, and deletes an account with all its data only with --yes', async () => {
    const user = await registerUser(ctx.app);
    expect(await tally(['user', 'verify', user.username])).toMatchObject({ code: 0 });
    expect((await tally(['user', 'list'])).out).toMatch(
      new RegExp(`${user.username}\\t[^\\t]+\\tverified`),
    );
    const unconfirmed = await tally(['user', 'delete', user.username]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.err).toMatch(/add --yes/);
    expect(await tally(['user', 'delete', user.username, '--yes'])).toMatchObject({ code: 0 });
    expect((await login(user.username, user.password)).statusCode).toBe(401);
    const gone = await tally(['user', 'delete', user.username, '--yes']);
    expect(gone).toMatchObject({ code: 1, err: `No user named ${user.username}\n` });
  });

  it('says how to use it, with exit code 2 for a wrong command', async () => {
    expect((await tally([])).code).toBe(2);
    expect(await tally(['help'])).toMatchObject({ code: 0 });
    const unknown = await tally(['users']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/Unknown command: users/);
    expect((await tally(['user', 'frobnicate'])).code).toBe(2);
    expect((await tally(['user', 'list', '--bogus'])).code).toBe(2);
  });
});

describe('tally migrate and backup', () => {
  it('migrates (nothing to do) and backs the SQLite database up', async () => {
    expect(await tally(['migrate'])).toMatchObject({
      code: 0,
      out: 'The database is up to date\n',
    });
    if (pgUrl) return; // pg_dump of a test schema is covered by db/backup.test.ts
    const file = path.join(ctx.database.dataDir, 'cli-backup.db');
    expect(await tally(['backup', file])).toMatchObject({ code: 0 });
    expect(existsSync(file)).toBe(true);
    expect((await tally(['restore'])).code).toBe(2);
  });
});

describe('tally healthcheck', () => {
  it('exits 0 while the server is ready and 1 once nothing answers on its port', async () => {
    const served = await createTestApp();
    await served.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = served.app.server.address() as { port: number };
    const check = async (argv: string[]) => {
      let out = '';
      let err = '';
      const code = await runCli(
        argv,
        {
          stdin: Readable.from([]),
          stdout: { write: (text: string) => (out += text) },
          stderr: { write: (text: string) => (err += text) },
        },
        { config: testConfig({ host: '0.0.0.0', port }) },
      );
      return { code, out, err };
    };
    expect(await check(['healthcheck'])).toMatchObject({
      code: 0,
      out: expect.stringContaining('/readyz: 200'),
    });
    expect(await check(['healthcheck', '--live'])).toMatchObject({
      code: 0,
      out: expect.stringContaining('/healthz: 200'),
    });
    await served.close();
    expect(await check(['healthcheck'])).toMatchObject({
      code: 1,
      err: expect.stringContaining(`http://127.0.0.1:${port}/readyz did not answer`),
    });
  });
});

describe('tally admin', () => {
  it('grants the admin page to an account and takes it back, never from the last operator', async () => {
    // The first account this file makes (tally user create, above) is the database's operator.
    const first = 'operator_made';
    const chosen = 'a chosen passphrase';
    expect(
      await tally(
        ['user', 'create', 'second_admin', 'second@example.com', '--password-stdin'],
        chosen,
      ),
    ).toMatchObject({ code: 0 });
    const session = async () =>
      (await login('second_admin', chosen)).json<{ accessToken: string }>().accessToken;

    expect((await apiClient(ctx.app, { token: await session() })(adminApi.users)).statusCode).toBe(
      403,
    );
    expect(await tally(['admin', 'grant', 'second_admin'])).toMatchObject({
      code: 0,
      out: 'second_admin is an operator: the admin page is at https://tally.example/admin\n',
    });
    expect((await apiClient(ctx.app, { token: await session() })(adminApi.users)).statusCode).toBe(
      200,
    );
    expect(await tally(['admin', 'revoke', 'second_admin'])).toMatchObject({ code: 0 });
    expect((await apiClient(ctx.app, { token: await session() })(adminApi.users)).statusCode).toBe(
      403,
    );

    // The database's first account is its only operator now: it stays one.
    const last = await tally(['admin', 'revoke', first]);
    expect(last.code).toBe(1);
    expect(last.err).toMatch(/is the only operator: grant another account first/);
    expect((await tally(['admin', 'promote', first])).code).toBe(2);
  });
});
