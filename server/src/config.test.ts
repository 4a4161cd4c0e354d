import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { resolveJwtSecret } from './secrets.js';
import { connect } from './db/connection.js';

describe('loadConfig', () => {
  it('has working defaults with no environment at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      googleClientId: null,
      webConcurrency: 1,
    });
    expect(config.dataDir).toBe(path.resolve('data'));
  });

  it('lists every bad variable at once', () => {
    const load = () =>
      loadConfig({
        PORT: 'eighty',
        JWT_SECRET: 'short',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://x',
      });
    expect(load).toThrow(/PORT must be a whole number/);
    expect(load).toThrow(/JWT_SECRET must be at least 32 bytes/);
    expect(load).toThrow(/LOG_LEVEL must be one of/);
    expect(load).toThrow(/DATABASE_URL must be a postgres: or postgresql: URL/);
  });

  it('lets channels reach private addresses only when OUTBOUND_ALLOW_PRIVATE is true', () => {
    expect(loadConfig({}).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' }).outboundAllowPrivate).toBe(true);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'yes please' })).toThrow(
      'OUTBOUND_ALLOW_PRIVATE must be true or false',
    );
  });

  it('reads OTEL_EXPORTER_OTLP_ENDPOINT as an http(s) base URL, off when unset', () => {
    expect(loadConfig({}).otlpEndpoint).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).otlpEndpoint).toBe(
      'http://collector:4318',
    );
    for (const bad of ['collector:4318', 'grpc://collector:4317']) {
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: bad })).toThrow(
        'OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL',
      );
    }
  });

  it('refuses more than one process on SQLite', () => {
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(
      /WEB_CONCURRENCY above 1 needs DATABASE_URL/,
    );
  });

  it('refuses more than one process without Redis, which would multiply every rate limit', () => {
    const several = { WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://localhost/tally' };
    expect(() => loadConfig(several)).toThrow(/WEB_CONCURRENCY above 1 needs REDIS_URL/);
    expect(loadConfig({ ...several, REDIS_URL: 'redis://127.0.0.1:6379' }).webConcurrency).toBe(2);
  });

  it('trusts no proxy by default, and never every client', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    // `true` keeps its old meaning for one reverse proxy, without believing spoofed entries.
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
    for (const bad of ['everyone', '10.0.0.0/40', '300.1.1.1', '1.2.3.4;5.6.7.8', '99']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be/);
    }
  });

  it('takes Google keys over https only, except from a loopback address', () => {
    expect(() => loadConfig({ GOOGLE_JWKS_URL: 'http://keys.example.com/certs' })).toThrow(
      /GOOGLE_JWKS_URL must be an https URL/,
    );
    for (const url of [
      'http://127.0.0.1:4000/certs',
      'http://localhost/certs',
      'https://x.test/c',
    ]) {
      expect(loadConfig({ GOOGLE_JWKS_URL: url }).googleJwksUrl).toBe(url);
    }
  });

  it('ends sessions 30 days after sign-in unless SESSION_MAX_DAYS says otherwise', () => {
    expect(loadConfig({}).sessionMaxDays).toBe(30);
    expect(loadConfig({ SESSION_MAX_DAYS: '7' }).sessionMaxDays).toBe(7);
    expect(() => loadConfig({ SESSION_MAX_DAYS: '0' })).toThrow(/SESSION_MAX_DAYS must be/);
  });

  it('ends sessions unused for 14 days unless SESSION_IDLE_DAYS says otherwise', () => {
    expect(loadConfig({}).sessionIdleDays).toBe(14);
    expect(loadConfig({ SESSION_IDLE_DAYS: '3' }).sessionIdleDays).toBe(3);
    expect(() => loadConfig({ SESSION_IDLE_DAYS: '0' })).toThrow(/SESSION_IDLE_DAYS must be/);
    expect(() => loadConfig({ SESSION_IDLE_DAYS: 'soon' })).toThrow(/SESSION_IDLE_DAYS must be/);
  });
});

describe('e-mail and sign-up settings', () => {
  it('sends no e-mail, writes links to localhost and keeps sign-up open by default', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({
      smtpUrl: null,
      mailFrom: null,
      publicUrl: 'http://localhost:8080',
      registration: 'open',
    });
  });

  it('reads SMTP_URL with its credentials, MAIL_FROM, PUBLIC_URL and REGISTRATION', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://tally:s3cret@mail.example.com:465',
      MAIL_FROM: 'Tally <tally@example.com>',
      PUBLIC_URL: 'https://tally.example.com/',
      REGISTRATION: 'Closed',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtps://tally:s3cret@mail.example.com:465',
      mailFrom: 'Tally <tally@example.com>',
      publicUrl: 'https://tally.example.com',
      registration: 'closed',
    });
  });

  it('lists every bad e-mail setting without repeating the SMTP URL, which may hold a password', () => {
    const load = () =>
      loadConfig({
        SMTP_URL: 'http://tally:s3cret@mail.example.com',
        MAIL_FROM: 'nobody',
        PUBLIC_URL: 'https://tally.example.com/app',
        REGISTRATION: 'invite-only',
      });
    expect(load).toThrow(/SMTP_URL must be a smtp: or smtps: URL/);
    expect(load).toThrow(/MAIL_FROM must be an e-mail address/);
    expect(load).toThrow(/PUBLIC_URL must be an http or https origin without a path/);
    expect(load).toThrow(/REGISTRATION must be open or closed/);
    expect(load).not.toThrow(/s3cret/);
  });

  it('needs MAIL_FROM whenever SMTP_URL is set', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(
      /MAIL_FROM must be set when SMTP_URL is/,
    );
  });
});

describe('OpenID Connect settings', () => {
  it('is off without OIDC_ISSUER, and reads the provider with its defaults', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(
      loadConfig({
        OIDC_ISSUER: 'https://auth.example.com/application/o/tally/',
        OIDC_CLIENT_ID: 'tally',
        OIDC_CLIENT_SECRET: 'client-s3cret',
      }).oidc,
    ).toEqual({
      issuer: 'https://auth.example.com/application/o/tally/',
      clientId: 'tally',
      clientSecret: 'client-s3cret',
      name: 'single sign-on',
      scopes: 'openid profile email',
      autoRegister: true,
      only: false,
    });
  });

  it('reads a public client, the name, the scopes and the switches', () => {
    expect(
      loadConfig({
        OIDC_ISSUER: 'http://127.0.0.1:9000',
        OIDC_CLIENT_ID: 'tally',
        OIDC_NAME: 'Keycloak',
        OIDC_SCOPES: 'openid  email',
        OIDC_AUTO_REGISTER: 'false',
        OIDC_ONLY: 'true',
      }).oidc,
    ).toMatchObject({
      clientSecret: null,
      name: 'Keycloak',
      scopes: 'openid email',
      autoRegister: false,
      only: true,
    });
  });

  it('lists every bad OIDC setting, never the client secret', () => {
    const load = () =>
      loadConfig({
        OIDC_ISSUER: 'http://auth.example.com',
        OIDC_CLIENT_SECRET: 'client-s3cret',
        OIDC_SCOPES: 'profile email',
        OIDC_ONLY: 'maybe',
      });
    expect(load).toThrow(/OIDC_ISSUER must be the https URL of the provider/);
    expect(load).toThrow(/OIDC_CLIENT_ID must be set when OIDC_ISSUER is/);
    expect(load).toThrow(/OIDC_SCOPES must include openid/);
    expect(load).toThrow(/OIDC_ONLY must be true or false/);
    expect(load).not.toThrow(/s3cret/);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'tally', OIDC_ONLY: 'true' })).toThrow(
      /OIDC_CLIENT_ID, OIDC_ONLY need OIDC_ISSUER/,
    );
  });
});

describe('e-mail to task settings', () => {
  it('is off without INBOX_IMAP_URL, and reads the mailbox, the address and the defaults', () => {
    expect(loadConfig({}).inbox).toBeNull();
    expect(
      loadConfig({
        INBOX_IMAP_URL: 'imaps://todo%40example.com:pa%24s@mail.example.com/Tally',
        INBOX_ADDRESS: 'Todo@Example.com',
      }).inbox,
    ).toEqual({
      host: 'mail.example.com',
      port: 993,
      secure: true,
      user: 'todo@example.com',
      password: 'pa$s',
      mailbox: 'Tally',
      processedFolder: 'Processed',
      localPart: 'todo',
      domain: 'example.com',
    });
    const apart = loadConfig({
      INBOX_IMAP_URL: 'imap://tally@127.0.0.1:1143',
      INBOX_IMAP_PASSWORD: 'from-a-secret',
      INBOX_ADDRESS: 'todo@example.com',
      INBOX_PROCESSED_FOLDER: 'Done',
    }).inbox;
    expect(apart).toMatchObject({
      port: 1143,
      secure: false,
      password: 'from-a-secret',
      mailbox: 'INBOX',
      processedFolder: 'Done',
    });
  });

  it('lists every bad INBOX setting, never the password', () => {
    const load = () =>
      loadConfig({
        INBOX_IMAP_URL: 'imaps://todo:s3cret-pw@',
        INBOX_ADDRESS: 'todo+x@example.com',
      });
    expect(load).toThrow(/INBOX_IMAP_URL must be an imap:\/\/ or imaps:\/\/ URL/);
    expect(load).not.toThrow(/s3cret-pw/);
    const noPassword = () =>
      loadConfig({
        INBOX_IMAP_URL: 'imaps://todo@mail.example.com',
        INBOX_ADDRESS: 'todo+x@example.com',
      });
    expect(noPassword).toThrow(/INBOX_IMAP_URL needs a password/);
    expect(noPassword).toThrow(
      /INBOX_ADDRESS must be the address mail to Tally goes to, without a \+/,
    );
    expect(() => loadConfig({ INBOX_ADDRESS: 'todo@example.com' })).toThrow(
      /INBOX_ADDRESS need INBOX_IMAP_URL/,
    );
  });
});

describe('resolveJwtSecret', () => {
  it('generates a 256-bit secret once, readable by the owner only, and reuses it', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tally-secret-'));
    const first = resolveJwtSecret({ jwtSecret: null, dataDir });
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    expect(statSync(path.join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(resolveJwtSecret({ jwtSecret: null, dataDir })).toBe(first);
    expect(resolveJwtSecret({ jwtSecret: 'x'.repeat(32), dataDir })).toBe('x'.repeat(32));
  });

  it('creates a missing data folder readable by the owner only', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'tally-secret-')), 'data');
    resolveJwtSecret({ jwtSecret: null, dataDir });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });
});

describe('connect', () => {
  it('refuses to open a file that is not a database instead of replacing it', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tally-corrupt-'));
    writeFileSync(
      path.join(dataDir, 'tally.db'),
      'this is not a database, but it is somebody’s file',
    );
    expect(() => connect({ databaseUrl: null, dataDir })).toThrow(
      /Cannot open the SQLite database/,
    );
  });
});

describe('first start and forward auth settings', () => {
  it('take a setup token of at least 16 characters', () => {
    expect(loadConfig({}).setupToken).toBeNull();
    expect(loadConfig({ SETUP_TOKEN: 'abcdefghijklmnop' }).setupToken).toBe('abcdefghijklmnop');
    expect(() => loadConfig({ SETUP_TOKEN: 'short' })).toThrow(/SETUP_TOKEN must be at least 16/);
  });

  it('leave forward auth off by default and trust its header only from listed proxies', () => {
    expect(loadConfig({})).toMatchObject({ authProxyHeader: null, authProxyTrusted: [] });
    expect(
      loadConfig({ AUTH_PROXY_HEADER: 'Remote-User', AUTH_PROXY_TRUSTED: '127.0.0.1, 10.0.0.0/8' }),
    ).toMatchObject({
      authProxyHeader: 'remote-user',
      authProxyTrusted: ['127.0.0.1', '10.0.0.0/8'],
    });
    expect(() => loadConfig({ AUTH_PROXY_HEADER: 'Remote-User' })).toThrow(
      /AUTH_PROXY_HEADER needs AUTH_PROXY_TRUSTED/,
    );
    expect(() => loadConfig({ AUTH_PROXY_TRUSTED: '127.0.0.1' })).toThrow(
      /AUTH_PROXY_TRUSTED needs AUTH_PROXY_HEADER/,
    );
    expect(() =>
      loadConfig({ AUTH_PROXY_HEADER: 'Remote User', AUTH_PROXY_TRUSTED: 'everyone' }),
    ).toThrow(/AUTH_PROXY_HEADER must be a header name[\s\S]*AUTH_PROXY_TRUSTED must list/);
  });
});
