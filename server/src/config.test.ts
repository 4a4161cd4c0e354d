import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, resolveJwtSecret } from './config.js';
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

  it('refuses more than one process on SQLite', () => {
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(
      /WEB_CONCURRENCY above 1 needs DATABASE_URL/,
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
