import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { type Config, loadConfig } from './config.js';

const vapid = webpush.generateVAPIDKeys();

/**
 * Each secret setting, a value it accepts, what it needs beside it, and where the value shows
 * in the parsed configuration.
 */
const SECRETS: {
  name: string;
  value: string;
  others?: Record<string, string>;
  read: (config: Config) => unknown;
}[] = [
  {
    name: 'JWT_SECRET',
    value: 'a-jwt-secret-of-more-than-32-bytes-long',
    read: (c) => c.jwtSecret,
  },
  {
    name: 'SMTP_URL',
    value: 'smtps://mailer:hunter2-password@mail.example.com',
    others: { MAIL_FROM: 'tally@example.com' },
    read: (c) => c.smtpUrl,
  },
  {
    name: 'OIDC_CLIENT_SECRET',
    value: 'oidc-client-secret-value',
    others: { OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'tally' },
    read: (c) => c.oidc?.clientSecret,
  },
  {
    name: 'DATABASE_URL',
    value: 'postgres://tally:db-password-value@db.example.com/tally',
    read: (c) => c.databaseUrl,
  },
  {
    name: 'VAPID_PRIVATE_KEY',
    value: vapid.privateKey,
    others: { VAPID_PUBLIC_KEY: vapid.publicKey },
    read: (c) => c.vapidPrivateKey,
  },
  {
    name: 'METRICS_TOKEN',
    value: 'metrics-token-0123456789abcdef',
    read: (c) => c.metricsToken,
  },
  {
    name: 'SETUP_TOKEN',
    value: 'setup-token-0123456789abcdef',
    read: (c) => c.setupToken,
  },
];

const folder = () => mkdtempSync(path.join(tmpdir(), 'tally-settings-'));

/** The problems loadConfig lists, or '' when it accepts the environment. */
const problemsOf = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('settings from files', () => {
  for (const secret of SECRETS) {
    describe(secret.name, () => {
      it('reads NAME_FILE, a file as Docker and Kubernetes mount secrets (trailing newline dropped)', () => {
        const file = path.join(folder(), 'secret');
        writeFileSync(file, `${secret.value}\n`);
        const config = loadConfig({ ...secret.others, [`${secret.name}_FILE`]: file });
        expect(secret.read(config)).toBe(secret.value);
      });

      it("reads systemd's $CREDENTIALS_DIRECTORY/NAME", () => {
        const credentials = folder();
        writeFileSync(path.join(credentials, secret.name), secret.value);
        const config = loadConfig({ ...secret.others, CREDENTIALS_DIRECTORY: credentials });
        expect(secret.read(config)).toBe(secret.value);
      });

      it('refuses the setting given two ways, naming it and never its value', () => {
        const credentials = folder();
        const file = path.join(credentials, secret.name);
        writeFileSync(file, secret.value);
        const both = [
          { [secret.name]: secret.value, [`${secret.name}_FILE`]: file },
          { [secret.name]: secret.value, CREDENTIALS_DIRECTORY: credentials },
          { [`${secret.name}_FILE`]: file, CREDENTIALS_DIRECTORY: credentials },
        ];
        for (const env of both) {
          const problems = problemsOf({ ...secret.others, ...env });
          expect(problems).toContain(`${secret.name} is given 2 ways`);
          expect(problems).not.toContain(secret.value);
        }
      });
    });
  }

  it('names an unreadable NAME_FILE without the contents of anything', () => {
    const missing = path.join(folder(), 'nothing-here');
    expect(problemsOf({ JWT_SECRET_FILE: missing })).toContain(
      `JWT_SECRET_FILE names a file Tally cannot read: ${missing} (ENOENT)`,
    );
    const unreadable = folder();
    mkdirSync(path.join(unreadable, 'JWT_SECRET'));
    expect(problemsOf({ CREDENTIALS_DIRECTORY: unreadable })).toContain(
      `JWT_SECRET: Tally cannot read ${path.join(unreadable, 'JWT_SECRET')} (EISDIR)`,
    );
  });

  it('never shows a secret read from a file in the problem it has', () => {
    const file = path.join(folder(), 'smtp');
    writeFileSync(file, 'ftp://mailer:very-secret-password@mail.example.com');
    const problems = problemsOf({ SMTP_URL_FILE: file, MAIL_FROM: 'tally@example.com' });
    expect(problems).toContain('SMTP_URL must be a smtp: or smtps: URL');
    expect(problems).not.toContain('very-secret-password');
  });

  it('works for any setting, so a secret added later needs nothing of its own', () => {
    const credentials = folder();
    writeFileSync(path.join(credentials, 'PORT'), '8123\n');
    expect(loadConfig({ CREDENTIALS_DIRECTORY: credentials }).port).toBe(8123);
  });
});
