import { isIP } from 'node:net';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCronSchedule } from './db/cron-schedule.js';
import { checkVapidKeys } from './secrets.js';
import { createSettingReader } from './setting-sources.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string | null;
  googleClientId: string | null;
  googleJwksUrl: string;
  googleIssuers: string[];
  /**
   * Whether an identity provider's ID token saying it did a multi-factor sign-in (amr "mfa")
   * stands for Tally's own second step (TRUST_PROVIDER_MFA, default true).
   */
  trustProviderMfa: boolean;
  redisUrl: string | null;
  logLevel: string;
  webConcurrency: number;
  /**
   * Which proxies' X-Forwarded-* headers to believe: none (false), the nearest N hops, or the
   * listed addresses and CIDR ranges. Never every client (that would let anyone pick its IP).
   */
  trustProxy: false | number | string[];
  /** Requests per minute per IP on /api/auth/*. */
  authRateLimitPerMinute: number;
  /** Login attempts per account and IP per 15 minutes (and per account before delays grow). */
  loginAttemptsPerAccount: number;
  /** A session's absolute lifetime from sign-in, in days. */
  sessionMaxDays: number;
  /** A session not renewed (used) for this many days ends: its refresh cookie stops working. */
  sessionIdleDays: number;
  /** Folder of the built web app; null when it should not be served. */
  webDistDir: string | null;
  /**
   * Where e-mail goes out (smtp:// or smtps://, credentials included); null sends none. Holds a
   * password: never logged, never sent to the browser.
   */
  smtpUrl: string | null;
  /** The sender of Tally's e-mails, e.g. `Tally <tally@example.com>`; set whenever smtpUrl is. */
  mailFrom: string | null;
  /** The origin written into e-mailed links, without a trailing slash. */
  publicUrl: string;
  /** Whether strangers may make accounts (by the form or by Google). */
  registration: 'open' | 'closed';
  /** An operator's VAPID key pair (both or neither); unset, one is kept in DATA_DIR. */
  vapidPublicKey: string | null;
  vapidPrivateKey: string | null;
  /** Who push services may contact about Tally's pushes: a mailto: or https: URL. */
  vapidSubject: string;
  /** The bearer token of GET /metrics (Prometheus); null turns the metrics off (404). */
  metricsToken: string | null;
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT: where OpenTelemetry traces go over OTLP/HTTP (its /v1/traces);
   * null: no tracing, and nothing of OpenTelemetry is loaded (server/src/plugins/tracing.ts).
   */
  otlpEndpoint: string | null;
  /**
   * OUTBOUND_ALLOW_PRIVATE: notification channels (ntfy, Gotify, webhooks) may reach loopback,
   * private and link-local addresses (a receiver on the operator's own network). Off by default.
   */
  outboundAllowPrivate: boolean;
  /** PUSHOVER_API_URL: Pushover's publish endpoint (a stand-in for tests). */
  pushoverApiUrl: string;
  /** Generic OpenID Connect sign-in (OIDC_*); null when OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
  // First start and forward auth (docs/decisions/127-setup-token.md, 128-forward-auth.md).
  /** SETUP_TOKEN: while no account exists, making the first one needs it; null when unset. */
  setupToken: string | null;
  /** AUTH_PROXY_HEADER (lower case), naming the signed-in user; null leaves forward auth off. */
  authProxyHeader: string | null;
  /** AUTH_PROXY_TRUSTED: the proxies whose header counts (addresses, CIDR ranges, presets). */
  authProxyTrusted: string[];
  /** E-mail to task (INBOX_*); null when INBOX_IMAP_URL is unset. */
  inbox: InboxConfig | null;
  /** Scheduled backups (BACKUP_*, docs/decisions/130-scheduled-backups.md). */
  backup: BackupConfig;
}

export interface BackupConfig {
  /** BACKUP_SCHEDULE, a cron expression in the server's time zone; null: no scheduled backups. */
  schedule: string | null;
  /** BACKUP_KEEP: how many scheduled backups stay in DATA_DIR/backups (the oldest go first). */
  keep: number;
}

/** The mailbox mail to todo+{secret}@{domain} lands in (docs/decisions/140-email-to-task-over-imap.md). */
export interface InboxConfig {
  /** imap:// or imaps://, host and port. */
  host: string;
  port: number;
  /** imaps: TLS from the start; imap: STARTTLS when offered (required off loopback). */
  secure: boolean;
  user: string;
  /** From INBOX_IMAP_PASSWORD, else the URL's. Never logged, never sent to the browser. */
  password: string;
  /** The folder new mail arrives in: the URL's path, INBOX by default. */
  mailbox: string;
  /** Where taken messages go (INBOX_PROCESSED_FOLDER, default Processed). */
  processedFolder: string;
  /** INBOX_ADDRESS split: its local part (before any +) and its domain, both lower case. */
  localPart: string;
  domain: string;
}

/** One OpenID Connect provider (README, Single sign-on; docs/decisions/080-openid-connect.md). */
export interface OidcConfig {
  /** OIDC_ISSUER: discovery reads `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Null for a public client (PKCE alone). Never logged, never sent to the browser. */
  clientSecret: string | null;
  /** The button's "Continue with {name}". */
  name: string;
  /** Space-separated, always with openid (default `openid profile email`). */
  scopes: string;
  /** OIDC_AUTO_REGISTER (default true): a first sign-in may create an account. */
  autoRegister: boolean;
  /** OIDC_ONLY: no password form, no sign-up with a password (the operator CLI still works). */
  only: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Reads configuration once, at start. Every bad variable is listed in one error so an operator
 * fixes them all in one go.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  // NAME, NAME_FILE or $CREDENTIALS_DIRECTORY/NAME, for every setting (setting-sources.ts).
  const text = createSettingReader(env, problems);
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
  const trustProxy = parseTrustProxy(text('TRUST_PROXY'), problems);
  const googleJwksUrl =
    url('GOOGLE_JWKS_URL', 'https://www.googleapis.com/oauth2/v3/certs', ['https:', 'http:']) ?? '';
  if (googleJwksUrl.startsWith('http:') && !isLoopbackUrl(googleJwksUrl)) {
    problems.push('GOOGLE_JWKS_URL must be an https URL (http only for a loopback address)');
  }

  const port = integer('PORT', 3000, 0, 65535);
  // The URL's own text is never part of a problem: SMTP_URL may carry a password.
  const smtpUrl = url('SMTP_URL', null, ['smtp:', 'smtps:']);
  const mailFrom = text('MAIL_FROM');
  if (smtpUrl !== null && mailFrom === null) {
    problems.push(
      'MAIL_FROM must be set when SMTP_URL is (the sender of e-mails, e.g. Tally <tally@example.com>)',
    );
  }
  if (mailFrom !== null && !/^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(mailFrom)) {
    problems.push(
      'MAIL_FROM must be an e-mail address, optionally with a name: Tally <tally@example.com>',
    );
  }
  const publicUrl = parsePublicUrl(text('PUBLIC_URL'), port, problems);
  const registration = (text('REGISTRATION') ?? 'open').toLowerCase();
  if (registration !== 'open' && registration !== 'closed') {
    problems.push('REGISTRATION must be open or closed');
  }

  const vapidPublicKey = text('VAPID_PUBLIC_KEY');
  const vapidPrivateKey = text('VAPID_PRIVATE_KEY');
  problems.push(...checkVapidKeys(vapidPublicKey, vapidPrivateKey));
  const vapidSubject = parseVapidSubject(text('VAPID_SUBJECT'), publicUrl, mailFrom, problems);
  const trustProviderMfa = (text('TRUST_PROVIDER_MFA') ?? 'true').toLowerCase();
  if (trustProviderMfa !== 'true' && trustProviderMfa !== 'false') {
    problems.push('TRUST_PROVIDER_MFA must be true or false');
  }
  const metricsToken = text('METRICS_TOKEN');
  if (metricsToken !== null && !/^[\x21-\x7e]{16,}$/.test(metricsToken)) {
    problems.push(
      'METRICS_TOKEN must be at least 16 characters without spaces (e.g. openssl rand -hex 32)',
    );
  }

  const otlpEndpoint = parseOtlpEndpoint(text('OTEL_EXPORTER_OTLP_ENDPOINT'), problems);

  const oidc = parseOidc(text, problems);
  const inbox = parseInbox(text, problems);
  const { setupToken, authProxyHeader, authProxyTrusted } = parseOperations(text, problems);
  if (setupToken !== null && oidc?.only) {
    problems.push(
      'SETUP_TOKEN has no use with OIDC_ONLY=true: the form makes no accounts (make the first with the tally command)',
    );
  }

  // Scheduled backups (BACKUP_*): kept in one block.
  const backupSchedule = text('BACKUP_SCHEDULE');
  if (backupSchedule !== null && !isCronSchedule(backupSchedule)) {
    problems.push(
      'BACKUP_SCHEDULE must be a cron expression: minute hour day-of-month month day-of-week, e.g. "30 3 * * *" (every day at 03:30)',
    );
  }
  const backup: BackupConfig = {
    schedule: backupSchedule,
    keep: integer('BACKUP_KEEP', 7, 1, 10_000),
  };
  const allowPrivate = (text('OUTBOUND_ALLOW_PRIVATE') ?? 'false').toLowerCase();
  if (allowPrivate !== 'true' && allowPrivate !== 'false') {
    problems.push('OUTBOUND_ALLOW_PRIVATE must be true or false');
  }

  const config: Config = {
    port,
    host: text('HOST') ?? 'localhost',
    dataDir: path.resolve(text('DATA_DIR') ?? 'data'),
    databaseUrl: url('DATABASE_URL', null, ['postgres:', 'postgresql:']),
    jwtSecret,
    googleClientId: text('GOOGLE_CLIENT_ID'),
    googleJwksUrl,
    googleIssuers: (text('GOOGLE_ISSUERS') ?? 'accounts.google.com,https://accounts.google.com')
      .split(',')
      .map((issuer) => issuer.trim())
      .filter(Boolean),
    trustProviderMfa: trustProviderMfa !== 'false',
    redisUrl: url('REDIS_URL', null, ['redis:', 'rediss:']),
    logLevel,
    webConcurrency: integer('WEB_CONCURRENCY', 1, 1, 64),
    trustProxy,
    authRateLimitPerMinute: integer('AUTH_RATE_LIMIT_PER_MINUTE', 20, 1, 1_000_000),
    loginAttemptsPerAccount: integer('LOGIN_ATTEMPTS_PER_ACCOUNT', 10, 1, 1_000_000),
    sessionMaxDays: integer('SESSION_MAX_DAYS', 30, 1, 3650),
    sessionIdleDays: integer('SESSION_IDLE_DAYS', 14, 1, 3650),
    webDistDir: text('WEB_DIST_DIR') ?? (existsSync(defaultWebDist) ? defaultWebDist : null),
    smtpUrl,
    mailFrom,
    publicUrl,
    registration: registration === 'closed' ? 'closed' : 'open',
    vapidPublicKey,
    vapidPrivateKey,
    vapidSubject,
    metricsToken,
    otlpEndpoint,
    outboundAllowPrivate: allowPrivate === 'true',
    pushoverApiUrl:
      url('PUSHOVER_API_URL', 'https://api.pushover.net/1/messages.json', ['https:', 'http:']) ??
      'https://api.pushover.net/1/messages.json',
    oidc,
    inbox,
    setupToken,
    authProxyHeader,
    authProxyTrusted,
    backup,
  };
  if (config.webConcurrency > 1 && config.databaseUrl === null) {
    problems.push(
      'WEB_CONCURRENCY above 1 needs DATABASE_URL (PostgreSQL): the embedded SQLite database serves one process only',
    );
  }
  if (config.webConcurrency > 1 && config.redisUrl === null) {
    problems.push(
      'WEB_CONCURRENCY above 1 needs REDIS_URL: without it each process would keep its own rate-limit counters, multiplying every limit',
    );
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  }
  return config;
}

/**
 * SETUP_TOKEN, AUTH_PROXY_HEADER and AUTH_PROXY_TRUSTED. The header is trusted only from listed
 * proxies: from anyone else it would let a client name the user it wants to be.
 */
function parseOperations(text: (name: string) => string | null, problems: string[]) {
  const setupToken = text('SETUP_TOKEN');
  if (setupToken !== null && !/^[\x21-\x7e]{16,}$/.test(setupToken)) {
    problems.push(
      'SETUP_TOKEN must be at least 16 characters without spaces (e.g. openssl rand -hex 16)',
    );
  }
  const header = text('AUTH_PROXY_HEADER');
  const trustedRaw = text('AUTH_PROXY_TRUSTED');
  if (header !== null && !/^[A-Za-z0-9-]+$/.test(header)) {
    problems.push('AUTH_PROXY_HEADER must be a header name, e.g. Remote-User');
  }
  let trusted: string[] = [];
  if (trustedRaw !== null) {
    const parsed = parseProxyList(trustedRaw);
    if (parsed === null) {
      problems.push(
        "AUTH_PROXY_TRUSTED must list the proxies' addresses, CIDR ranges or presets (e.g. 127.0.0.1,10.0.0.0/8)",
      );
    } else trusted = parsed;
  }
  if (header !== null && trusted.length === 0) {
    problems.push(
      'AUTH_PROXY_HEADER needs AUTH_PROXY_TRUSTED: the addresses of the proxies allowed to set it',
    );
  }
  if (header === null && trustedRaw !== null)
    problems.push('AUTH_PROXY_TRUSTED needs AUTH_PROXY_HEADER');
  return {
    setupToken,
    authProxyHeader: header === null ? null : header.toLowerCase(),
    authProxyTrusted: trusted,
  };
}

/**
 * PUBLIC_URL: the origin people reach Tally at, written into e-mailed links (default
 * http://localhost:PORT). Only an origin: Tally serves its pages from the root.
 */
function parsePublicUrl(raw: string | null, port: number, problems: string[]): string {
  const fallback = `http://localhost:${port}`;
  if (raw === null) return fallback;
  try {
    const parsed = new URL(raw);
    const bare = parsed.pathname === '/' && !parsed.search && !parsed.hash && !parsed.username;
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && bare) return parsed.origin;
  } catch {
    // Reported below with the other problems.
  }
  problems.push(
    'PUBLIC_URL must be an http or https origin without a path, e.g. https://tally.example.com',
  );
  return fallback;
}

/**
 * OIDC_*: every other variable needs OIDC_ISSUER, and OIDC_ISSUER needs OIDC_CLIENT_ID. The issuer
 * must be https (http only on a loopback address, for tests and local providers).
 */
function parseOidc(text: (name: string) => string | null, problems: string[]): OidcConfig | null {
  const flag = (name: string, fallback: boolean) => {
    const raw = text(name)?.toLowerCase();
    if (raw === undefined || raw === null) return fallback;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false`);
    return fallback;
  };
  const issuer = text('OIDC_ISSUER');
  const names = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_NAME', 'OIDC_SCOPES'];
  const flags = ['OIDC_AUTO_REGISTER', 'OIDC_ONLY'];
  if (issuer === null) {
    const stray = [...names, ...flags].filter((name) => text(name) !== null);
    if (stray.length > 0) problems.push(`${stray.join(', ')} need OIDC_ISSUER`);
    return null;
  }
  let parsed: URL | null = null;
  try {
    parsed = new URL(issuer);
  } catch {
    // Reported below.
  }
  if (
    parsed === null ||
    !(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackUrl(issuer))) ||
    parsed.search ||
    parsed.hash
  ) {
    problems.push(
      'OIDC_ISSUER must be the https URL of the provider (its discovery document is at OIDC_ISSUER/.well-known/openid-configuration; http only for a loopback address)',
    );
  }
  const clientId = text('OIDC_CLIENT_ID');
  if (clientId === null) problems.push('OIDC_CLIENT_ID must be set when OIDC_ISSUER is');
  const scopes = (text('OIDC_SCOPES') ?? 'openid profile email').split(/\s+/).filter(Boolean);
  if (!scopes.includes('openid')) problems.push('OIDC_SCOPES must include openid');
  return {
    issuer,
    clientId: clientId ?? '',
    clientSecret: text('OIDC_CLIENT_SECRET'),
    name: text('OIDC_NAME') ?? 'single sign-on',
    scopes: scopes.join(' '),
    autoRegister: flag('OIDC_AUTO_REGISTER', true),
    only: flag('OIDC_ONLY', false),
  };
}

/**
 * INBOX_*: INBOX_IMAP_URL names the mailbox (imaps://user:password@host/INBOX) and INBOX_ADDRESS
 * the address mail is sent to (todo@example.com: each account's is todo+{secret}@example.com).
 * The password may come apart, in INBOX_IMAP_PASSWORD. No problem quotes the URL: it may hold
 * the password.
 */
function parseInbox(text: (name: string) => string | null, problems: string[]): InboxConfig | null {
  const raw = text('INBOX_IMAP_URL');
  const others = ['INBOX_ADDRESS', 'INBOX_IMAP_PASSWORD', 'INBOX_PROCESSED_FOLDER'];
  if (raw === null) {
    const stray = others.filter((name) => text(name) !== null);
    if (stray.length > 0) problems.push(`${stray.join(', ')} need INBOX_IMAP_URL`);
    return null;
  }
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // Reported below.
  }
  if (url === null || (url.protocol !== 'imap:' && url.protocol !== 'imaps:') || !url.hostname) {
    problems.push(
      'INBOX_IMAP_URL must be an imap:// or imaps:// URL, e.g. imaps://user:password@mail.example.com/INBOX',
    );
    return null;
  }
  const user = decodeURIComponent(url.username);
  const password = text('INBOX_IMAP_PASSWORD') ?? decodeURIComponent(url.password);
  if (!user) problems.push('INBOX_IMAP_URL must name the mailbox user (imaps://user@host)');
  if (!password) {
    problems.push('INBOX_IMAP_URL needs a password, in the URL or in INBOX_IMAP_PASSWORD');
  }
  const address = (text('INBOX_ADDRESS') ?? '').toLowerCase();
  const match = /^([a-z0-9._-]+)@([a-z0-9.-]+\.[a-z0-9-]+|localhost)$/.exec(address);
  if (!match) {
    problems.push(
      'INBOX_ADDRESS must be the address mail to Tally goes to, without a +, e.g. todo@example.com',
    );
  }
  const mailbox = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'INBOX';
  const secure = url.protocol === 'imaps:';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    secure,
    user,
    password,
    mailbox,
    processedFolder: text('INBOX_PROCESSED_FOLDER') ?? 'Processed',
    localPart: match?.[1] ?? '',
    domain: match?.[2] ?? '',
  };
}

/**
 * VAPID_SUBJECT, the contact push services see: by default PUBLIC_URL when it is https, else
 * MAIL_FROM's address, else a placeholder (push services accept it; they just cannot write).
 */
function parseVapidSubject(
  raw: string | null,
  publicUrl: string,
  mailFrom: string | null,
  problems: string[],
): string {
  if (raw !== null) {
    if (/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(raw)) return raw;
    problems.push('VAPID_SUBJECT must be a mailto: or https: URL, e.g. mailto:admin@example.com');
  }
  if (publicUrl.startsWith('https:')) return publicUrl;
  const address = mailFrom === null ? null : /<([^<>]+)>$|^(\S+@\S+)$/.exec(mailFrom);
  const mail = address?.[1] ?? address?.[2];
  return mail ? `mailto:${mail}` : 'mailto:tally@localhost';
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopbackUrl = (raw: string) => {
  const { hostname } = new URL(raw);
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
};

/** Named ranges that Fastify's proxy-addr understands. */
const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A comma-separated list of addresses, CIDR ranges and presets; null when one entry is none. */
function parseProxyList(value: string): string[] | null {
  const entries = value
    .toLowerCase()
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const isAddressOrRange = (entry: string) => {
    if (PROXY_PRESETS.has(entry)) return true;
    const [address = '', prefix] = entry.split('/');
    const version = isIP(address);
    if (version === 0) return false;
    return (
      prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
    );
  };
  return entries.length > 0 && entries.every(isAddressOrRange) ? entries : null;
}

/**
 * TRUST_PROXY: `false` (default), a hop count, or a comma-separated list of proxy addresses, CIDR
 * ranges and presets (loopback, linklocal, uniquelocal). `true` means the one proxy in front (1
 * hop): believing every X-Forwarded-For entry would let any client choose the IP that rate limits
 * count. A hop count trusts whoever connects, so it is only safe when the server can be reached
 * through the proxy alone; a list of the proxies' addresses is safe either way.
 */
function parseTrustProxy(raw: string | null, problems: string[]): false | number | string[] {
  const value = (raw ?? 'false').toLowerCase();
  if (['false', '0', 'off', 'no'].includes(value)) return false;
  if (['true', 'on', 'yes'].includes(value)) return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 32) return hops;
  }
  const entries = parseProxyList(value);
  if (entries !== null) return entries;
  problems.push(
    'TRUST_PROXY must be false, a number of proxy hops (e.g. 1), or proxy addresses, CIDR ranges or presets (e.g. loopback,10.0.0.0/8)',
  );
  return false;
}

/** An http(s) base URL, without a trailing slash: the exporter adds /v1/traces. */
function parseOtlpEndpoint(raw: string | null, problems: string[]): string | null {
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    problems.push('OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL');
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    problems.push('OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL');
    return null;
  }
  return parsed.href.replace(/\/+$/, '');
}
