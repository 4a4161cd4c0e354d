import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string | null;
  googleClientId: string | null;
  googleJwksUrl: string;
  googleIssuers: string[];
  redisUrl: string | null;
  logLevel: string;
  webConcurrency: number;
  trustProxy: boolean;
  /** Requests per minute per IP on /api/auth/*. */
  authRateLimitPerMinute: number;
  /** Login attempts per account per 15 minutes. */
  loginAttemptsPerAccount: number;
  /** Folder of the built web app; null when it should not be served. */
  webDistDir: string | null;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Reads configuration once, at start. Every bad variable is listed in one error so an operator
 * fixes them all in one go.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const text = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = text(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const url = (name: string, fallback: string | null, protocols: string[]) => {
    const raw = text(name);
    if (raw === null) return fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      problems.push(`${name} must be a ${protocols.join(' or ')} URL`);
      return fallback;
    }
  };

  const jwtSecret = text('JWT_SECRET');
  if (jwtSecret !== null && Buffer.byteLength(jwtSecret) < 32) {
    problems.push('JWT_SECRET must be at least 32 bytes long');
  }
  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const trustProxyRaw = (text('TRUST_PROXY') ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0', 'on', 'off'].includes(trustProxyRaw)) {
    problems.push('TRUST_PROXY must be true or false');
  }

  const config: Config = {
    port: integer('PORT', 3000, 0, 65535),
    host: text('HOST') ?? 'localhost',
    dataDir: path.resolve(text('DATA_DIR') ?? 'data'),
    databaseUrl: url('DATABASE_URL', null, ['postgres:', 'postgresql:']),
    jwtSecret,
    googleClientId: text('GOOGLE_CLIENT_ID'),
    googleJwksUrl:
      url('GOOGLE_JWKS_URL', 'https://www.googleapis.com/oauth2/v3/certs', ['https:', 'http:']) ??
      '',
    googleIssuers: (text('GOOGLE_ISSUERS') ?? 'accounts.google.com,https://accounts.google.com')
      .split(',')
      .map((issuer) => issuer.trim())
      .filter(Boolean),
    redisUrl: url('REDIS_URL', null, ['redis:', 'rediss:']),
    logLevel,
    webConcurrency: integer('WEB_CONCURRENCY', 1, 1, 64),
    trustProxy: ['true', '1', 'on'].includes(trustProxyRaw),
    authRateLimitPerMinute: integer('AUTH_RATE_LIMIT_PER_MINUTE', 20, 1, 1_000_000),
    loginAttemptsPerAccount: integer('LOGIN_ATTEMPTS_PER_ACCOUNT', 10, 1, 1_000_000),
    webDistDir: text('WEB_DIST_DIR') ?? (existsSync(defaultWebDist) ? defaultWebDist : null),
  };
  if (config.webConcurrency > 1 && config.databaseUrl === null) {
    problems.push(
      'WEB_CONCURRENCY above 1 needs DATABASE_URL (PostgreSQL): the embedded SQLite database serves one process only',
    );
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  }
  return config;
}

/**
 * JWT_SECRET when set; otherwise a random 256-bit secret generated on first start and kept in
 * DATA_DIR (owner-only), so tokens survive a restart.
 */
export function resolveJwtSecret(config: Pick<Config, 'jwtSecret' | 'dataDir'>): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (Buffer.byteLength(stored) < 32) {
      throw new Error(`${file} holds a secret shorter than 32 bytes; delete it or set JWT_SECRET`);
    }
    return stored;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}
